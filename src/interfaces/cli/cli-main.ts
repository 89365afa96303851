import 'reflect-metadata';
import { Command } from 'commander';
import { findCommand } from './command-table';
import { useProcessSettings } from '../../domain/settings/process-settings';
import { readStartupArgs, startupSettings } from './startup-argv';

/**
 * The CLI: the command is read from argv first. A known command runs in a container of its own
 * modules (command-run.ts); anything else — no command, `--help`, `help`, `completion`, a typo —
 * is answered by the command tree alone, with no container (cli-tree.ts). Each path's code is
 * required only when it is taken. The exit code.
 */
export async function main(argv: string[]): Promise<number> {
  const { command, flags, skipPlugins } = readStartupArgs(argv, new Command());
  useProcessSettings(startupSettings(flags, skipPlugins));
  const entry = findCommand(command);
  if (entry)
    return (require('./command-run') as typeof import('./command-run')).runCommand(entry, command!, argv, flags);
  return (require('./cli-tree') as typeof import('./cli-tree')).runTree(argv, flags);
}

/** The process entry (dist/main.js, from the bundle or the tsc output). */
export function runCli(argv: string[]): Promise<void> {
  return main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`[SYSTEM.INTERNAL.UNEXPECTED] ${String(err)}\n`);
      process.exitCode = 4;
    },
  );
}
