import { AwfError } from '../../src/domain/errors/awf-error';

/** `<code>: <message>` of the AwfError that `fn` throws; anything else (or nothing) fails the test. */
export function awfFailure(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof AwfError) return `${err.code}: ${err.message}`;
    throw err;
  }
  throw new Error('expected an error');
}
