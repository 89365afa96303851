/**
 * Structured logging: fields first, message second (pino's order). Implementations write
 * to stderr or a file, never stdout, which belongs to the protocol or the run's output.
 */
export interface AppLogger {
  debug(fields: object, msg: string): void;
  info(fields: object, msg: string): void;
  warn(fields: object, msg: string): void;
  error(fields: object, msg: string): void;
  child(bindings: Record<string, unknown>): AppLogger;
}

export const APP_LOGGER = Symbol.for('awf.AppLogger');
