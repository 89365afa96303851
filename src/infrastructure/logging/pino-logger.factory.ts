import pino, { type Logger } from 'pino';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import { CoalescingFdStream, drainOnExit } from './coalescing-fd.stream';

const LEVELS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']);

/**
 * The process's one pino instance: JSON lines on stderr (fd 2) through a stream that gathers
 * a busy spell's lines into one write and drains on exit, so a line is not lost when the
 * process exits; every line passes the secret masker.
 */
export function createPinoLogger(masker: SecretMasker, level = process.env.AWF_LOG_LEVEL ?? 'info'): Logger {
  const stream = drainOnExit(new CoalescingFdStream(2));
  return pino(
    {
      level: LEVELS.has(level) ? level : 'info',
      base: { pid: process.pid },
      hooks: { streamWrite: (line: string) => masker.mask(line) },
    },
    stream,
  );
}
