import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { isAwfError, type AwfError } from '../../domain/errors/awf-error';
import { categoryOf, ErrorCodes } from '../../domain/errors/error-codes';
import type { HttpApiContext } from './http-api.context';
import { ApiProblem, sendProblem } from './problem';

/** Codes whose HTTP status is not their category's. */
const STATUS_OF: Readonly<Record<string, number>> = {
  [ErrorCodes.RUN_NOT_FOUND]: 404,
  [ErrorCodes.WORKFLOW_NOT_FOUND]: 404,
  [ErrorCodes.RUN_AMBIGUOUS_ID]: 404,
  [ErrorCodes.RUN_NOT_RESUMABLE]: 409,
  [ErrorCodes.SERVE_STOPPING]: 503,
  [ErrorCodes.HISTORY_UNAVAILABLE]: 503,
};

/**
 * Every failure of a route becomes an RFC 7807 problem: ours as thrown, awf's errors by their
 * code (a user's or a workflow's fault is 422, as AWF answers), Nest's own (an unknown route)
 * by their status. A failure of awf itself is logged and answered 500 without its insides.
 */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  constructor(private readonly api: Pick<HttpApiContext, 'masker' | 'logger'>) {}

  catch(err: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<ServerResponse>();
    sendProblem(res, this.problemOf(err));
  }

  private problemOf(err: unknown): ApiProblem {
    if (err instanceof ApiProblem)
      return new ApiProblem(err.status, err.code, this.api.masker.mask(err.detail), err.extra);
    if (isAwfError(err)) return this.fromAwf(err);
    if (err instanceof HttpException) {
      const status = err.getStatus();
      const code = status === 404 ? ErrorCodes.SERVE_NOT_FOUND : ErrorCodes.SERVE_BAD_REQUEST;
      return new ApiProblem(status, code, status === 404 ? 'no such route (docs/serve.md lists them)' : err.message);
    }
    this.api.logger.error({ err: String(err), stack: (err as Error)?.stack }, 'http api: unexpected error');
    return new ApiProblem(500, ErrorCodes.SYSTEM_INTERNAL, 'internal error (the server log has the details)');
  }

  private fromAwf(err: AwfError): ApiProblem {
    const category = categoryOf(err.code);
    const status = STATUS_OF[err.code] ?? (category === 'USER' || category === 'WORKFLOW' ? 422 : 500);
    if (status === 500) this.api.logger.error({ code: err.code, err: err.message }, 'http api: request failed');
    return new ApiProblem(status, err.code, this.api.masker.mask(err.message), err.hint ? { hint: err.hint } : {});
  }
}
