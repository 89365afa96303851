import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';

export type OutputFormat = 'text' | 'json';

/** `-f text|json` of run, validate and list. */
export function parseFormat(value: string): OutputFormat {
  if (value === 'text' || value === 'json') return value;
  throw new AwfError(ErrorCodes.CLI_INVALID_ARGS, `invalid output format "${value}" (text or json)`, { format: value });
}
