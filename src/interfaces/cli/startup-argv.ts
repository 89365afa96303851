// The one place that reads argv before commander parses it. The entry (cli-main.ts) passes
// process.argv here and nowhere else; commands read their arguments and options from commander.
// What is read early, and why:
// - the command's name: its container holds only that command's modules (command-table.ts);
// - the --config file of `mcp-serve`: its project's extensions shape the container;
// - the global flags the container needs while it is built (--storage, --history, the log level) and
//   the error output needs when parsing fails (-f json, --no-hints, --no-color), and
//   `--skip-plugins`, which the plugin search path of every part of the run reads.
// The flags are read by commander itself, from the same declarations the real parse uses
// (registerGlobalFlags), so there is no second parser; a bad value is reported by the real parse.
import { resolve } from 'node:path';
import type { Command as Commander } from 'commander';
import type { ProcessSettings } from '../../domain/settings/process-settings';
import { colorEnabled, type GlobalFlags, type OutputFormat, registerGlobalFlags } from './global-flags';

/** What awf reads of argv before its container exists. */
export interface StartupArgs {
  /** The first operand: the command (`run`, `mcp-serve`…), or undefined. */
  command?: string;
  /** The global flags given (commander still validates them); `color` resolved for stderr. */
  flags: Partial<GlobalFlags>;
  /** `--skip-plugins` of `run`, `validate` or `mcp-serve` (each command declares it; read early here). */
  skipPlugins: boolean;
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
  program.option('--skip-plugins');
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
  return {
    command: operands[0],
    flags: { ...flags, color: colorEnabled(process.stderr, flags, env) },
    skipPlugins: o.skipPlugins === true,
  };
}

/**
 * The process's settings from its flags, paths made absolute: `--verbose` and `-q` are levels.
 * A step's `mcp-serve` gets them back as flags (childFlags), so it writes where its run does.
 */
export function startupSettings(flags: Partial<GlobalFlags>, skipPlugins = false): ProcessSettings {
  const level = flags.logLevel ?? (flags.verbose ? 'debug' : flags.quiet ? 'error' : undefined);
  return {
    ...(flags.storage ? { storage: resolve(flags.storage) } : {}),
    ...(level ? { logLevel: level } : {}),
    ...(flags.logFormat === 'json' || flags.logFormat === 'pretty' ? { logFormat: flags.logFormat } : {}),
    ...(flags.logFile ? { logFile: resolve(flags.logFile) } : {}),
    ...(skipPlugins ? { skipPlugins } : {}),
  };
}
