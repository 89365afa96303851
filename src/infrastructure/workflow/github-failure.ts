import type { ErrorCode } from '../../domain/errors/error-codes';

/** A `github.*` operation's failure with the code that says what to do; it becomes the step's error. */
export class GithubFailure extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'GithubFailure';
  }
}
