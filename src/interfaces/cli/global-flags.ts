import { closeSync, openSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command as Commander } from 'commander';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';

export type OutputFormat = 'text' | 'json' | 'table' | 'quiet';

/** The flags every command takes, in any position (AWF's persistent flags, reference §3.1). */
export interface GlobalFlags {
  format: OutputFormat;
  quiet: boolean;
  verbose: boolean;
  color: boolean;
  hints: boolean;
  logLevel?: string;
  logFormat?: string;
  logFile?: string;
  storage?: string;
  history?: string;
}

export const FORMATS: readonly OutputFormat[] = ['text', 'json', 'table', 'quiet'];
export const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/** Formats only some commands draw (`awf diagram -f mermaid`); every other command refuses them. */
export const COMMAND_FORMATS: Readonly<Record<string, readonly string[]>> = { diagram: ['dot', 'mermaid'] };
const ANY_COMMAND_FORMAT = new Set(Object.values(COMMAND_FORMATS).flat());

export function parseFormat(value: string): OutputFormat {
  if ((FORMATS as readonly string[]).includes(value) || ANY_COMMAND_FORMAT.has(value)) return value as OutputFormat;
  throw new AwfError(
    ErrorCodes.CLI_INVALID_ARGS,
    `invalid output format "${value}"`,
    { format: value },
    `Use -f ${FORMATS.join('|')}.`,
  );
}

function parseLogFormat(value: string): string {
  if (value === 'json' || value === 'pretty') return value;
  throw new AwfError(
    ErrorCodes.CLI_INVALID_ARGS,
    `invalid log format "${value}"`,
    { format: value },
    'Use --log-format json|pretty.',
  );
}

/** Checked here, where a mistake is a user error, not later where it would cost the logs. */
function parseLogFile(value: string): string {
  const path = resolve(value);
  try {
    closeSync(openSync(path, 'a', 0o600));
  } catch (err) {
    throw new AwfError(
      ErrorCodes.CLI_INVALID_ARGS,
      `cannot write the log file "${value}": ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      { file: path },
      'Give a file in a directory that exists and that you can write to.',
    );
  }
  return path;
}

function parseLevel(value: string): string {
  if (LEVELS.includes(value)) return value;
  throw new AwfError(
    ErrorCodes.CLI_INVALID_ARGS,
    `invalid log level "${value}"`,
    { level: value },
    `Use --log-level ${LEVELS.join('|')}.`,
  );
}

/** Declares the global flags on the root command, so commander accepts them before or after a command. */
export function registerGlobalFlags(program: Commander): void {
  program
    .option('-f, --format <format>', `output format: ${FORMATS.join(', ')}`, parseFormat, 'text')
    .option('-q, --quiet', 'print only errors and the result')
    .option('--verbose', 'debug logs on stderr')
    .option('--no-color', 'no colours (also NO_COLOR; FORCE_COLOR forces them)')
    .option('--no-hints', 'no hint lines under errors')
    .option('--log-level <level>', `log level: ${LEVELS.join(', ')}`, parseLevel)
    .option(
      '--log-format <format>',
      'logs as json lines or pretty (human) lines (default pretty on stderr)',
      parseLogFormat,
    )
    .option('--log-file <path>', 'append the logs (JSON lines) to this file instead of stderr', parseLogFile)
    .option('--storage <dir>', 'where runs and history.db are kept (default $XDG_DATA_HOME/awf)')
    .option(
      '--history <url>',
      'a shared run history in PostgreSQL: postgres://… (default $AWF_HISTORY_URL, else SQLite)',
    )
    .hook('preAction', (_root, action) => refuseForeignFormat(action));
}

/** A command-specific format (`mermaid`) given to a command that does not draw it is a refusal, not text. */
function refuseForeignFormat(action: Commander): void {
  const format = String(action.optsWithGlobals().format ?? 'text');
  if ((FORMATS as readonly string[]).includes(format) || COMMAND_FORMATS[action.name()]?.includes(format)) return;
  throw new AwfError(
    ErrorCodes.CLI_INVALID_ARGS,
    `invalid output format "${format}" for awf ${action.name()}`,
    { format },
    `Use -f ${FORMATS.join('|')}; -f ${format} is for ${commandsDrawing(format)}.`,
  );
}

function commandsDrawing(format: string): string {
  return Object.keys(COMMAND_FORMATS)
    .filter((c) => COMMAND_FORMATS[c].includes(format))
    .map((c) => `awf ${c}`)
    .join(', ');
}

/** The global flags as parsed by commander, read from any command. */
export function globalFlags(command?: Commander): GlobalFlags {
  const o = (command?.optsWithGlobals() ?? {}) as Record<string, unknown>;
  return {
    format: (o.format as OutputFormat | undefined) ?? 'text',
    quiet: o.quiet === true || o.format === 'quiet',
    verbose: o.verbose === true,
    color: o.color !== false,
    hints: o.hints !== false,
    logLevel: o.logLevel as string | undefined,
    logFormat: o.logFormat as string | undefined,
    logFile: o.logFile as string | undefined,
    storage: o.storage as string | undefined,
    history: o.history as string | undefined,
  };
}

/**
 * Colour only on a terminal: `--no-color` and NO_COLOR turn it off, TERM=dumb too;
 * FORCE_COLOR (non-empty, not 0) turns it on even in a pipe.
 */
export function colorEnabled(
  stream: { isTTY?: boolean },
  flags: { color?: boolean },
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (flags.color === false || (env.NO_COLOR ?? '') !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/** The JSON outputs' version: bumped only when a field changes meaning or goes away. */
export const SCHEMA_VERSION = 1;

export function jsonLine(value: object): string {
  return `${JSON.stringify({ schema_version: SCHEMA_VERSION, ...value })}\n`;
}
