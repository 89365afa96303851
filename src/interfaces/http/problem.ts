import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { ErrorCode } from '../../domain/errors/error-codes';

/** What Express hands a middleware, typed by what awf reads of it. */
export type ApiRequest = IncomingMessage & { body?: unknown };
export type Next = (err?: unknown) => void;

/**
 * An RFC 7807 problem, AWF's error shape (`title`, `status`, `detail`), with awf's error
 * code and hint as extension members so a client can tell cases apart and a person can act.
 */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly detail: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
  }

  body(): Record<string, unknown> {
    return {
      type: 'about:blank',
      title: STATUS_CODES[this.status] ?? 'Error',
      status: this.status,
      detail: this.detail,
      code: this.code,
      ...this.extra,
    };
  }
}

/** Writes the problem as the whole response; a response already under way is only ended. */
export function sendProblem(res: ServerResponse, problem: ApiProblem, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(problem.body());
  res.writeHead(problem.status, {
    'content-type': 'application/problem+json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}
