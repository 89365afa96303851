import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';

/**
 * Progress lines of release installs (AWF prints them on stdout); on stderr with `-f json`,
 * whose stdout is one JSON value.
 */
export function progressTo(json: boolean): (line: string) => void {
  return (line) => (json ? process.stderr : process.stdout).write(`${line}\n`);
}

/** `update [name] [--all]`: exactly one of the two. */
export function nameOrAll(command: string, name: string | undefined, all: boolean | undefined): void {
  if (!name !== !all) return;
  throw new AwfError(
    ErrorCodes.CLI_INVALID_ARGS,
    name ? 'give a name or --all, not both' : `${command} needs a name, or --all`,
    {},
    `For example: ${command} <name>, or ${command} --all.`,
  );
}
