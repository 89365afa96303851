import { AwfError, isAwfError } from '../../domain/errors/awf-error';
import { ErrorCodes, exitCodeFor } from '../../domain/errors/error-codes';
import { jsonLine } from './global-flags';

/** Commander's codes for output the user asked for: not failures. */
const COMMANDER_OK = new Set(['commander.helpDisplayed', 'commander.version', 'commander.help']);

interface CommanderLikeError extends Error {
  code: string;
  exitCode: number;
}

function isCommanderError(err: unknown): err is CommanderLikeError {
  return (
    err instanceof Error &&
    typeof (err as CommanderLikeError).code === 'string' &&
    (err as CommanderLikeError).code.startsWith('commander.')
  );
}

/**
 * The one place that turns any failure into what the user sees and the exit code.
 * User mistakes never show a stack trace; an unexpected error is SYSTEM and shows one
 * only with AWF_DEBUG=1.
 */
export function normalizeError(err: unknown): AwfError | { silentExit: number } {
  if (isAwfError(err)) return err;
  if (isCommanderError(err)) {
    if (COMMANDER_OK.has(err.code)) return { silentExit: err.exitCode };
    const message = err.message.replace(/^error:\s*/i, '');
    return new AwfError(
      ErrorCodes.CLI_INVALID_ARGS,
      message,
      { reason: err.code },
      'Run `awf --help` for the commands and their options.',
    );
  }
  const message = err instanceof Error ? err.message : String(err);
  return new AwfError(
    ErrorCodes.SYSTEM_INTERNAL,
    `unexpected error: ${message}`,
    {},
    'This is a bug in awf; rerun with AWF_DEBUG=1 and report the output.',
    { cause: err },
  );
}

/** Errors a command raises after it already printed its result on stdout (a run's report). */
const reportedOnStdout = new WeakSet<AwfError>();

export function markReportedOnStdout(err: AwfError): AwfError {
  reportedOnStdout.add(err);
  return err;
}

export function wasReportedOnStdout(err: AwfError): boolean {
  return reportedOnStdout.has(err);
}

export interface ErrorStyle {
  hints?: boolean;
  color?: boolean;
}

export function renderError(
  err: AwfError,
  format: 'text' | 'json',
  mask: (s: string) => string = (s) => s,
  style: ErrorStyle = {},
): string {
  if (format === 'json')
    return mask(jsonLine({ status: 'error', exit_code: exitCodeFor(err.code), error: err.toJSON() }));
  const paint = (code: string, text: string): string => (style.color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const lines = [`${paint('31', `[${err.code}]`)} ${err.message}`];
  if (err.hint && style.hints !== false) lines.push(paint('2', `  hint: ${err.hint}`));
  if (process.env.AWF_DEBUG === '1' && err.cause instanceof Error && err.cause.stack) lines.push(err.cause.stack);
  return mask(lines.join('\n')) + '\n';
}

export function exitCodeOfError(err: AwfError): number {
  return exitCodeFor(err.code);
}
