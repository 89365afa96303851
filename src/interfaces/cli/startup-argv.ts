// The one place that reads argv before commander parses it. The entry (cli-main.ts) passes
// process.argv here and nowhere else; commands read their arguments and options from commander.
// What is read early, and why:
// - the command's name: its container holds only that command's modules (command-table.ts);
// - the --config file of `mcp-serve`: its project's extensions shape the container;
// - the global flags the container needs while it is built (--storage, --history, the log level) and
//   the error output needs when parsing fails (-f json, --no-hints, --no-color).
// The flags are read by commander itself, from the same declarations the real parse uses
// (registerGlobalFlags), so there is no second parser; a bad value is reported by the real parse.
import { resolve } from 'node:path';
import type { Command as Commander } from 'commander';
import { colorEnabled, type GlobalFlags, type OutputFormat, registerGlobalFlags } from './global-flags';

/** What awf reads of argv before its container exists. */
export interface StartupArgs {
  /** The first operand: the command (`run`, `mcp-serve`…), or undefined. */
  command?: string;
  /** The global flags given (commander still validates them); `color` resolved for stderr. */
  flags: Partial<GlobalFlags>;
}

/** The `--config` file of an `mcp-serve` command line in any form nest-commander accepts; undefined if none. */
export function serveConfigArg(argv: readonly string[]): string | undefined {
  const args = argv.slice(2);
  if (!args.includes('mcp-serve')) return undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i].startsWith('--config=')) return args[i].slice('--config='.length) || undefined;
    if (args[i] === '--config') return args[i + 1];
  }
  return undefined;
}

/**
 * The command and global flags of `argv` (node, script, args…), read by commander as the real
 * parse will; `program` is a new, empty commander program, used for this read only.
 */
export function readStartupArgs(
  argv: readonly string[],
  program: Commander,
  env: NodeJS.ProcessEnv = process.env,
): StartupArgs {
  program.allowUnknownOption().exitOverride();
  registerGlobalFlags(program);
  let operands: string[] = [];
  try {
    operands = program.parseOptions(argv.slice(2)).operands;
  } catch {
    // a missing or bad value: the real parse reports it, with the flags read up to it
  }
  const o = program.opts<Record<string, unknown>>();
  const flags: Partial<GlobalFlags> = {
    format: o.format as OutputFormat,
    quiet: o.quiet === true,
    verbose: o.verbose === true,
    color: o.color !== false,
    hints: o.hints !== false,
    ...(typeof o.logLevel === 'string' ? { logLevel: o.logLevel } : {}),
    ...(typeof o.logFormat === 'string' ? { logFormat: o.logFormat } : {}),
    ...(typeof o.logFile === 'string' ? { logFile: o.logFile } : {}),
    ...(typeof o.storage === 'string' ? { storage: o.storage } : {}),
    ...(typeof o.history === 'string' ? { history: o.history } : {}),
  };
  return { command: operands[0], flags: { ...flags, color: colorEnabled(process.stderr, flags, env) } };
}

/**
 * Applies the flags that must act before the container exists, through the environment so
 * that what `awf run` starts (each step's `mcp-serve`) inherits them: `--storage` sets
 * AWF_STORAGE, `--log-level`/`--verbose`/`-q` set AWF_LOG_LEVEL, `--log-format` and `--log-file`
 * set AWF_LOG_FORMAT and AWF_LOG_FILE (a step's `mcp-serve` then logs its JSON lines into the
 * same file; on stderr it always writes JSON, which its agent reads).
 */
export function applyStartupFlags(flags: Partial<GlobalFlags>, env: NodeJS.ProcessEnv = process.env): void {
  if (flags.storage) env.AWF_STORAGE = resolve(flags.storage);
  const level = flags.logLevel ?? (flags.verbose ? 'debug' : flags.quiet ? 'error' : undefined);
  if (level) env.AWF_LOG_LEVEL = level;
  if (flags.logFormat) env.AWF_LOG_FORMAT = flags.logFormat;
  if (flags.logFile) env.AWF_LOG_FILE = resolve(flags.logFile);
}
