/** One operation a plugin offers, as `awf validate` and `awf plugin list` need it. */
export interface PluginOperationInfo {
  name: string;
  description: string;
}

/** `disabled`: never started (`awf plugin enable <name>` enables it); `broken`: it could not start. */
export type PluginStatus = 'enabled' | 'disabled' | 'broken';

export interface InstalledPlugin {
  name: string;
  version: string;
  description: string;
  enabled: boolean;
  status: PluginStatus;
  operations: PluginOperationInfo[];
  /** Why a broken plugin cannot start: its first line is the reason, the lines after it the evidence. */
  problem?: string;
}

/** What a step that needs `plugin` is told when it is disabled or broken; undefined when it is usable. */
export function unusablePlugin(plugin: InstalledPlugin): string | undefined {
  if (plugin.status === 'disabled')
    return `plugin "${plugin.name}" is disabled; enable it with \`awf plugin enable ${plugin.name}\``;
  if (plugin.status === 'broken')
    return `plugin "${plugin.name}" cannot start: ${(plugin.problem ?? 'unknown reason').split('\n')[0]}`;
  return undefined;
}

/**
 * The plugins installed on this machine (AWF_PLUGINS_PATH, ./.awf/plugins, XDG data dir).
 * `list()` never throws for a broken plugin: it is listed with no operations, and its
 * problem is logged. Used by `validate`, by `run` before the first step, and by
 * `mcp-serve` at start, so UNKNOWN_PLUGIN / UNKNOWN_OPERATION mean the same everywhere.
 * When no PLUGIN_CATALOG is bound, callers treat the catalog as empty.
 */
export interface PluginCatalog {
  /** `startTimeoutMs`: how long each plugin may take to start (`awf validate --validator-timeout`). */
  list(options?: { startTimeoutMs?: number }): Promise<InstalledPlugin[]>;
}

export const PLUGIN_CATALOG = Symbol.for('awf.PluginCatalog');
