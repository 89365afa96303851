import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';

/** The queue a command uses: `--queue URL`, else AWF_QUEUE_URL; a command that needs one and has none fails. */
export function queueUrl(flag: string | true | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const url = typeof flag === 'string' ? flag : env.AWF_QUEUE_URL;
  if (url) return url;
  throw new AwfError(
    ErrorCodes.CLI_INVALID_ARGS,
    'no queue given',
    {},
    'Give --queue redis://host:port or postgres://host/db, or set AWF_QUEUE_URL (docs/scale-out.md).',
  );
}
