import type { AppLogger } from '../../domain/ports/app-logger.port';

/**
 * The one stderr line that says why a plugin failed, for the first line of an error message
 * (the one `awf plugin list` shows). A plugin's stderr often starts with noise: a logger's
 * JSON lines (pino's numeric `level`, hclog's `@level`), or Node's crash preamble (the file
 * and line, the source line, a caret) before `Error: Cannot find module …`. Error-level
 * JSON entries and error-looking text win; else the first line that is not noise.
 */
const ERROR_TEXT = /^(?:Uncaught\s+)?(?:[A-Z][\w.]*)?(?:Error|Exception)\b.*:|^panic:|^(?:fatal|error)\b/i;
const NOISE = [
  /^node:internal\//, // Node's location of the throw
  /^\S+\.[cm]?[jt]sx?:\d+$/, // `/path/plugin.js:12`
  /^\s*\^+\s*$/, // the caret under the source line
  /^\s+at\s/, // stack frames
  /^Require stack:$/,
  /^- \//, // entries of the require stack
  /^Node\.js v\d/, // Node's version footer
  /^\s*throw\s/, // the source line that threw
];

export function meaningfulStderrLine(lines: readonly string[]): string | undefined {
  let firstPlain: string | undefined;
  for (const raw of lines) {
    const line = raw.trimEnd();
    if (!line.trim()) continue;
    const entry = parseLogEntry(line);
    if (entry) {
      if (entry.error) return entry.message;
      continue;
    }
    if (NOISE.some((re) => re.test(line))) continue;
    if (ERROR_TEXT.test(line.trim())) return line.trim();
    firstPlain ??= line.trim();
  }
  return firstPlain;
}

/** A pino or hclog JSON line: its message, and whether it is at error level or above. */
function parseLogEntry(line: string): { message: string; error: boolean } | undefined {
  if (!line.startsWith('{')) return undefined;
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof entry !== 'object' || entry === null) return undefined;
  const level = entry.level ?? entry['@level'];
  const error = typeof level === 'number' ? level >= 50 : typeof level === 'string' && /^(error|fatal)$/i.test(level);
  const msg = String(entry.msg ?? entry['@message'] ?? entry.message ?? '');
  const err = entry.err as { message?: unknown } | undefined;
  const detail = typeof err?.message === 'string' && !msg.includes(err.message) ? `: ${err.message}` : '';
  return { message: `${msg}${detail}` || line, error };
}

/** hclog JSON lines keep their level; anything else is logged as the plugin's own output. */
export function logPluginLine(logger: AppLogger, line: string): void {
  if (line.startsWith('{')) {
    try {
      const entry = JSON.parse(line) as Record<string, unknown>;
      if (typeof entry['@message'] === 'string') {
        const level = String(entry['@level'] ?? 'info');
        const { '@message': msg, '@level': _l, '@timestamp': _t, ...fields } = entry;
        const log =
          level === 'error'
            ? logger.error
            : level === 'warn'
              ? logger.warn
              : level === 'debug' || level === 'trace'
                ? logger.debug
                : logger.info;
        log.call(logger, { stream: 'stderr', ...fields }, String(msg));
        return;
      }
    } catch {
      // not JSON after all: logged as text below
    }
  }
  const level = /^\s*(panic:|\[ERROR\])/.test(line) ? 'error' : /^\s*\[WARN\]/.test(line) ? 'warn' : 'info';
  logger[level]({ stream: 'stderr' }, line);
}
