import { ErrorCodes } from '../../domain/errors/error-codes';
import { GithubAccess } from './github-access';
import { GithubFailure } from './github-failure';
import { readCapped } from './http-request.operation';

const TIMEOUT_MS = 30_000;
/** GitHub's answers for these endpoints are small; a bigger one is not GitHub. */
const MAX_BODY = 8 << 20;
const MAX_PAGES = 10;
const API_VERSION = '2022-11-28';

export interface GithubReply {
  status: number;
  data: unknown;
  headers: Headers;
}

/**
 * GitHub's REST API through Node's own fetch: the token as a Bearer header, GitHub's media type
 * and API version, a 30 s deadline under the step's signal. Any status outside 2xx becomes a
 * GithubFailure whose code says what to do (401, 403, 404, 422, the rate limit with its reset
 * time, 5xx); `what` names the thing asked for, so a 404 says which issue was not found.
 */
export class GithubRestClient {
  constructor(
    readonly access: GithubAccess = new GithubAccess(),
    private readonly userAgent = 'awf',
  ) {}

  async request(
    method: string,
    path: string,
    what: string,
    signal: AbortSignal,
    body?: unknown,
    accept: number[] = [],
  ): Promise<GithubReply> {
    const token = await this.access.requireToken();
    const url = new URL(path.replace(/^\//, ''), this.access.apiBase());
    const deadline = AbortSignal.timeout(TIMEOUT_MS);
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: {
          accept: 'application/vnd.github+json',
          authorization: `Bearer ${token.value}`,
          'user-agent': this.userAgent,
          'x-github-api-version': API_VERSION,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'follow',
        signal: AbortSignal.any([signal, deadline]),
      });
    } catch (err) {
      const why = signal.aborted
        ? 'cancelled'
        : deadline.aborted
          ? `no answer within ${TIMEOUT_MS / 1000} s`
          : (cause(err).code ?? cause(err).message ?? (err as Error).message);
      throw new GithubFailure(ErrorCodes.GITHUB_REQUEST_FAILED, `${what}: cannot reach ${url.origin}: ${why}`);
    }
    const { text, truncated } = await readCapped(res, MAX_BODY);
    const data = truncated ? undefined : parse(text);
    if ((res.status >= 200 && res.status < 300) || accept.includes(res.status))
      return { status: res.status, data, headers: res.headers };
    throw failure(res.status, res.headers, data, what, token.source);
  }

  /** Every page of a list endpoint (GitHub's Link rel="next"), up to `limit` items. */
  async list(path: string, what: string, limit: number, signal: AbortSignal): Promise<unknown[]> {
    const items: unknown[] = [];
    let next: string | undefined = `${path}${path.includes('?') ? '&' : '?'}per_page=${Math.min(100, limit)}`;
    for (let page = 0; next && page < MAX_PAGES && items.length < limit; page++) {
      const reply = await this.request('GET', next, what, signal);
      if (!Array.isArray(reply.data)) throw unexpected(what);
      items.push(...reply.data);
      next = nextPage(reply.headers.get('link'), this.access.apiBase());
    }
    return items.slice(0, limit);
  }
}

function failure(status: number, headers: Headers, data: unknown, what: string, source: string): GithubFailure {
  const said = messageOf(data);
  const remaining = headers.get('x-ratelimit-remaining');
  const retryAfter = headers.get('retry-after');
  if ((status === 403 || status === 429) && (remaining === '0' || retryAfter)) {
    const reset = Number(headers.get('x-ratelimit-reset'));
    const when =
      remaining === '0' && reset > 0
        ? `it resets at ${new Date(reset * 1000).toISOString()} ` +
          `(in ${Math.max(0, Math.ceil((reset * 1000 - Date.now()) / 60_000))} min)`
        : `GitHub asks to retry after ${retryAfter} s`;
    const limit = headers.get('x-ratelimit-limit');
    const of = limit ? ` of ${limit} requests (${headers.get('x-ratelimit-resource') ?? 'core'})` : '';
    return new GithubFailure(ErrorCodes.GITHUB_RATE_LIMITED, `${what}: GitHub's rate limit${of} is spent; ${when}`);
  }
  if (status === 401)
    return new GithubFailure(
      ErrorCodes.GITHUB_AUTH_FAILED,
      `${what}: GitHub refused the token from ${source} (401 ${said || 'Bad credentials'}): ` +
        'it is wrong, expired or revoked',
    );
  if (status === 403) {
    const needs = headers.get('x-accepted-github-permissions');
    return new GithubFailure(
      ErrorCodes.GITHUB_FORBIDDEN,
      `${what}: GitHub answered 403 (${said || 'Forbidden'}): the token from ${source} may not do this` +
        (needs ? `; it needs ${needs}` : ''),
    );
  }
  if (status === 404)
    return new GithubFailure(
      ErrorCodes.GITHUB_NOT_FOUND,
      `${what}: not found (404), or the token from ${source} cannot see it`,
    );
  if (status === 422) return new GithubFailure(ErrorCodes.GITHUB_REJECTED, `${what}: GitHub refused it (422 ${said})`);
  return new GithubFailure(
    ErrorCodes.GITHUB_REQUEST_FAILED,
    `${what}: GitHub answered ${status}${said ? ` (${said})` : ''}`,
  );
}

/** GitHub's error body: `message`, plus `errors[]` items that each say what was wrong. */
export function messageOf(data: unknown): string {
  if (typeof data !== 'object' || data === null) return '';
  const { message, errors } = data as { message?: unknown; errors?: unknown };
  const details = Array.isArray(errors)
    ? errors.map((e) =>
        typeof e === 'string' ? e : String((e as { message?: unknown; code?: unknown }).message ?? e.code ?? ''),
      )
    : [];
  return [typeof message === 'string' ? message : '', ...details.filter(Boolean)].filter(Boolean).join(': ');
}

function cause(err: unknown): { code?: string; message?: string } {
  return (err as { cause?: { code?: string; message?: string } }).cause ?? {};
}

export function unexpected(what: string): GithubFailure {
  return new GithubFailure(ErrorCodes.GITHUB_REQUEST_FAILED, `${what}: GitHub's answer is not the JSON expected`);
}

/** The rel="next" URL of a Link header, as a path under the API base (never another host). */
function nextPage(link: string | null, base: URL): string | undefined {
  const m = link && /<([^>]+)>\s*;\s*rel="next"/.exec(link);
  if (!m) return undefined;
  const next = new URL(m[1], base);
  return next.origin === base.origin && next.pathname.startsWith(base.pathname)
    ? next.pathname.slice(base.pathname.length) + next.search
    : undefined;
}

function parse(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
