import pino, { type Logger } from 'pino';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';

const LEVELS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']);

/**
 * The process's one pino instance: JSON lines on stderr (fd 2), synchronous so a line is
 * never lost when the process exits, and every line passes the secret masker.
 */
export function createPinoLogger(masker: SecretMasker, level = process.env.AWF_LOG_LEVEL ?? 'info'): Logger {
  return pino(
    {
      level: LEVELS.has(level) ? level : 'info',
      base: { pid: process.pid },
      hooks: { streamWrite: (line: string) => masker.mask(line) },
    },
    pino.destination({ fd: 2, sync: true }),
  );
}
