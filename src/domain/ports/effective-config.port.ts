/** One setting awf runs with, and where it came from (`default`, `env AWF_STORAGE`, `--storage`, the file). */
export interface ConfigSetting {
  key: string;
  value: unknown;
  source: string;
}

export interface ConfigReport {
  /** `.awf/config.yaml` of the working directory, when there is one. */
  file?: string;
  settings: ConfigSetting[];
  /** The file's `inputs:` as written (AWF's `config show` shows these). */
  inputs: Record<string, unknown>;
}

/** The global flags that change a setting; they were turned into variables before the container was built. */
export interface ConfigFlags {
  storage?: string;
  /** The flag that set the log level: `--log-level`, `--verbose` or `-q`. */
  logLevelFrom?: string;
}

/**
 * Every setting awf would use in this directory, merged as the commands merge them: flags, then
 * variables, then `.awf/config.yaml`, then defaults. Values are as found: masking is the caller's.
 */
export interface EffectiveConfig {
  read(flags: ConfigFlags): ConfigReport;
}

export const EFFECTIVE_CONFIG = Symbol.for('awf.EffectiveConfig');
