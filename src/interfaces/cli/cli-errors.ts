import { constants } from 'node:os';
import { AwfError, isAwfError } from '../../domain/errors/awf-error';
import { ErrorCodes, exitCodeFor } from '../../domain/errors/error-codes';
import { awfOnly } from './awf-only';
import { jsonLine } from './global-flags';

const { signals } = constants;

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
    const awf = awfOnly(message);
    return new AwfError(
      ErrorCodes.CLI_INVALID_ARGS,
      awf?.message ?? message,
      { reason: err.code },
      awf?.hint ?? 'Run `awf --help` for the commands and their options.',
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

/** Errors the command already printed in full (a run's progress showed its failure): only the exit code is left. */
const shownAlready = new WeakSet<AwfError>();

export function markShown(err: AwfError): AwfError {
  shownAlready.add(err);
  return err;
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
  if (format === 'json') {
    const error = err.toJSON();
    if (style.hints === false) delete error.hint;
    return mask(jsonLine({ status: 'error', exit_code: exitCodeFor(err.code), error }));
  }
  const paint = (code: string, text: string): string => (style.color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const lines = [`${paint('31', `[${err.code}]`)} ${err.message}`];
  if (err.hint && style.hints !== false) lines.push(paint('2', `  hint: ${err.hint}`));
  if (process.env.AWF_DEBUG === '1' && err.cause instanceof Error && err.cause.stack) lines.push(err.cause.stack);
  return mask(lines.join('\n')) + '\n';
}

/** How a command ended: `failure` is what it threw (undefined: it did not throw). */
export interface CommandOutcome {
  failure?: unknown;
  /** The signal that stopped it, when one did and it ended because of it. */
  signal?: string;
}

export interface ReportOptions extends ErrorStyle {
  format?: 'text' | 'json' | 'table' | 'quiet';
  mask?: (s: string) => string;
}

/**
 * The one outcome → exit code mapping of every entry point (the CLI, and mcp-serve as the
 * startup snapshot starts it): writes what the user sees of a failure, returns the exit code.
 * A failure goes to stderr in every format (with `-f json`, as one JSON object), so stdout holds
 * only a command's result, as in AWF.
 */
export function reportOutcome(outcome: CommandOutcome, options: ReportOptions = {}): number {
  // A command a signal ended exits as shells report it: 128 + the signal's number (SIGINT 130).
  if (outcome.failure === undefined)
    return outcome.signal ? 128 + (signals[outcome.signal as keyof typeof signals] ?? 0) : 0;
  const normalized = normalizeError(outcome.failure);
  if ('silentExit' in normalized) return normalized.silentExit;
  const json = options.format === 'json';
  if (shownAlready.has(normalized) && !json) return exitCodeFor(normalized.code);
  process.stderr.write(
    renderError(normalized, json ? 'json' : 'text', options.mask, {
      hints: options.hints !== false,
      color: options.color === true && !json,
    }),
  );
  return exitCodeFor(normalized.code);
}
