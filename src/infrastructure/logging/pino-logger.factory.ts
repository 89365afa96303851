import { openSync } from 'node:fs';
import pino, { type Logger } from 'pino';
import { type ProcessSettings, processSettings } from '../../domain/settings/process-settings';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import { PrettyLogLines } from './pretty-log-line';

const LEVELS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']);

/** Where and how this process logs: its log flags, else AWF_LOG_LEVEL, AWF_LOG_FORMAT, AWF_LOG_FILE. */
export interface LogSettings {
  level: string;
  format: 'json' | 'pretty';
  /** Absolute path of the log file; stderr without one. */
  file?: string;
}

/**
 * `mcp-serve` always writes JSON lines (its stderr is read by the agent CLI, or the file is
 * shared with the run) at `info`, one line per tool call. Every other command writes for a
 * person next to its progress: `pretty` at `warn` on stderr (`--verbose` shows debug), or
 * JSON at `info` into `--log-file`. `tui` draws on the terminal, so it logs into `--log-file` or
 * nowhere. The flags, else AWF_LOG_LEVEL and AWF_LOG_FORMAT, say otherwise.
 */
export function logSettings(
  env: NodeJS.ProcessEnv = process.env,
  argv: readonly string[] = process.argv,
  flags: Readonly<ProcessSettings> = processSettings(),
): LogSettings {
  const command = argv.slice(2).find((a) => !a.startsWith('-'));
  const serve = command === 'mcp-serve';
  const file = flags.logFile || env.AWF_LOG_FILE || undefined;
  const quiet = command === 'tui' && !file ? 'silent' : 'warn';
  const asked = flags.logFormat ?? env.AWF_LOG_FORMAT;
  const format = serve ? 'json' : asked === 'json' || (file && asked !== 'pretty') ? 'json' : 'pretty';
  const named = flags.logLevel ?? env.AWF_LOG_LEVEL;
  const level = named && LEVELS.has(named) ? named : serve || file ? 'info' : quiet;
  return { level, format, ...(file ? { file } : {}) };
}

/**
 * The process's one pino instance, writing each line synchronously (pino's own destination), so
 * no line is lost when the process exits; every line passes the secret masker. A log file is
 * appended to (O_APPEND: the lines of `awf run` and of each step's `mcp-serve` never mix); one
 * that cannot be opened leaves the logs on stderr.
 */
export function createPinoLogger(masker: SecretMasker, settings: LogSettings = logSettings()): Logger {
  let fd = 2;
  if (settings.file) {
    try {
      fd = openSync(settings.file, 'a', 0o600);
    } catch {
      // `--log-file` was checked when parsed; a file gone since then must not cost the run its logs.
    }
  }
  const stream = pino.destination({ dest: fd, sync: true });
  // A reader that is gone (EPIPE) leaves the logs nowhere to go; it must not end the process.
  stream.on('error', () => undefined);
  const pretty = settings.format === 'pretty' ? new PrettyLogLines(fd === 2 && process.stderr.isTTY) : undefined;
  return pino(
    {
      level: settings.level,
      base: { pid: process.pid },
      hooks: {
        streamWrite: pretty ? (line: string) => pretty.format(masker.mask(line)) : (line: string) => masker.mask(line),
      },
    },
    stream,
  );
}
