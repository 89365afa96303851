import type { Logger } from 'pino';
import { ValueSecretMasker } from '../../application/secret-masker.service';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import { createPinoLogger } from '../logging/pino-logger.factory';

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

// One masker and one pino per process, shared by every container in it (tests build several).
// Made on first use: a command that never logs or masks never sets pino up.
let bound: { masker: ValueSecretMasker; logger: Logger } | undefined;

function current(): { masker: ValueSecretMasker; logger: Logger } {
  if (!bound) {
    const masker = new ValueSecretMasker();
    bound = { masker, logger: createPinoLogger(masker) };
  }
  return bound;
}

function log(level: Level, args: unknown[]): void {
  const logger = current().logger;
  (logger[level] as (...a: unknown[]) => void).apply(logger, args);
}

/** The secret masker providers get: it stands for the process's one masker. */
class ProcessSecretMasker implements SecretMasker {
  mask(text: string): string {
    return current().masker.mask(text);
  }

  add(...values: string[]): void {
    current().masker.add(...values);
  }
}

/**
 * The logger providers get (APP_LOGGER, and nestjs-pino's out-of-request logger, which only
 * calls the level methods): it stands for the process's pino. `child` makes a real pino
 * child, so it too belongs to the process that asks.
 */
class ProcessLogger implements AppLogger {
  trace(...args: unknown[]): void {
    log('trace', args);
  }

  debug(...args: unknown[]): void {
    log('debug', args);
  }

  info(...args: unknown[]): void {
    log('info', args);
  }

  warn(...args: unknown[]): void {
    log('warn', args);
  }

  error(...args: unknown[]): void {
    log('error', args);
  }

  fatal(...args: unknown[]): void {
    log('fatal', args);
  }

  child(bindings: Record<string, unknown>): AppLogger {
    return current().logger.child(bindings);
  }
}

export const processSecretMasker: SecretMasker = new ProcessSecretMasker();
export const processLogger = new ProcessLogger();
