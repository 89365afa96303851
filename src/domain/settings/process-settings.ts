/**
 * What this process's command line set that every part of it reads: `--storage`, the log
 * flags and `--skip-plugins`. The CLI's entry sets it once from argv, before anything is built;
 * each reader falls back to the user's own AWF_* variables and then to the defaults. Nothing is
 * written into `process.env` to carry a flag: a child awf (a step's `mcp-serve`) gets the same
 * settings as flags on its command line (`childFlags`), so it works whatever environment the
 * agent CLI between them passes on (Codex passes none).
 */
export interface ProcessSettings {
  /** `--storage`, absolute. */
  storage?: string;
  /** `--log-level`, or what `--verbose`/`-q` mean. */
  logLevel?: string;
  logFormat?: 'json' | 'pretty';
  /** `--log-file`, absolute: a step's `mcp-serve` appends its lines to the same file. */
  logFile?: string;
  /** `awf run|validate|mcp-serve --skip-plugins`: no plugin is looked for. */
  skipPlugins?: boolean;
}

// One per process, like its logger: tests that run several commands in one process set it per command.
let current: Readonly<ProcessSettings> = {};

/** Replaces the settings (not merged: a setting a command line did not give is unset). */
export function useProcessSettings(settings: ProcessSettings): void {
  current = Object.freeze({ ...settings });
}

export function processSettings(): Readonly<ProcessSettings> {
  return current;
}

/** The flags that start a child awf with this process's settings, e.g. `--storage=/x`. */
export function childFlags(settings: Readonly<ProcessSettings> = current): string[] {
  return [
    ...(settings.storage ? [`--storage=${settings.storage}`] : []),
    ...(settings.logLevel ? [`--log-level=${settings.logLevel}`] : []),
    ...(settings.logFile ? [`--log-file=${settings.logFile}`] : []),
    ...(settings.skipPlugins ? ['--skip-plugins'] : []),
  ];
}
