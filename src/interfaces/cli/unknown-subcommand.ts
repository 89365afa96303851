import type { Command as Commander } from 'commander';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { closest } from '../../domain/workflow/unknown-keys.rules';

/**
 * A command with subcommands given a word that is none of them (`awf runs shw`): refused with
 * the nearest subcommand, as commander does for top-level commands, rather than ignored.
 */
export function unknownSubcommand(command: Commander, given: string): AwfError {
  const names = command.commands.flatMap((c) => [c.name(), ...c.aliases()]);
  const near = closest(given, names);
  const path = `awf ${command.name()}`;
  return new AwfError(
    ErrorCodes.CLI_INVALID_ARGS,
    `unknown command "${given}" for ${path}${near ? `; did you mean "${near}"?` : ''}`,
    { command: path, given },
    `Its commands: ${command.commands.map((c) => c.name()).join(', ')} (\`${path} --help\` says more).`,
  );
}
