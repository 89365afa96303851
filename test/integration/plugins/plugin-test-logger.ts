import type { AppLogger } from '../../../src/domain/ports/app-logger.port';

export interface LogLine {
  level: string;
  fields: Record<string, unknown>;
  msg: string;
}

/** An AppLogger that keeps its lines, so tests can read what a plugin wrote to stderr. */
export function memoryLogger(
  lines: LogLine[] = [],
  bindings: Record<string, unknown> = {},
): AppLogger & { lines: LogLine[] } {
  const at = (level: string) => (fields: object, msg: string) =>
    void lines.push({ level, fields: { ...bindings, ...fields }, msg });
  return {
    lines,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (b) => memoryLogger(lines, { ...bindings, ...b }),
  };
}
