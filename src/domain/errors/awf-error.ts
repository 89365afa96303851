import { type ErrorCode, exitCodeFor } from './error-codes';

/**
 * The one error type that crosses layers. `message` says what went wrong, `hint` what to do
 * about it; `details` holds structured facts (paths, names) for `-f json` output.
 */
export class AwfError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
    readonly hint?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AwfError';
  }

  get exitCode(): number {
    return exitCodeFor(this.code);
  }

  toJSON(): Record<string, unknown> {
    return {
      code: this.code,
      message: this.message,
      ...(this.hint ? { hint: this.hint } : {}),
      ...(Object.keys(this.details).length ? { details: this.details } : {}),
    };
  }
}

export function isAwfError(value: unknown): value is AwfError {
  return value instanceof AwfError;
}
