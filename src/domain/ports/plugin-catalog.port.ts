/** One operation a plugin offers, as `awf validate` and `awf plugin list` need it. */
export interface PluginOperationInfo {
  name: string;
  description: string;
}

export interface InstalledPlugin {
  name: string;
  version: string;
  description: string;
  enabled: boolean;
  operations: PluginOperationInfo[];
}

/**
 * The plugins installed on this machine (AWF_PLUGINS_PATH, ./.awf/plugins, XDG data dir).
 * `list()` never throws for a broken plugin: it is listed with no operations, and its
 * problem is logged. Used by `validate`, by `run` before the first step, and by
 * `mcp-serve` at start, so UNKNOWN_PLUGIN / UNKNOWN_OPERATION mean the same everywhere.
 * When no PLUGIN_CATALOG is bound, callers treat the catalog as empty.
 */
export interface PluginCatalog {
  list(): Promise<InstalledPlugin[]>;
}

export const PLUGIN_CATALOG = Symbol.for('awf.PluginCatalog');
