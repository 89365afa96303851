import type { BuiltinOperation, OperationResult } from '../../domain/workflow/ports/builtin-operation.port';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD'];
const DEFAULT_TIMEOUT_S = 30;
/** AWF's cap on the body kept (1 MiB); `max_body_bytes` may lower or raise it up to 16 MiB. */
const DEFAULT_MAX_BODY = 1 << 20;
const MAX_BODY_LIMIT = 16 << 20;
const MAX_REDIRECTS = 10;

/**
 * AWF's built-in `http.request`: url, method, headers, body, timeout (seconds, default 30),
 * retryable_status_codes; outputs status_code, body, headers, body_truncated. As in AWF any
 * status is a success unless listed in retryable_status_codes. Better than AWF: redirects are
 * followed only within the same host (and never from https to http) unless the target host is
 * in `allowed_redirect_hosts`, and `max_body_bytes` sets the cap.
 */
export class HttpRequestOperation implements BuiltinOperation {
  readonly name = 'http.request';

  async execute(inputs: Record<string, unknown>, signal: AbortSignal): Promise<OperationResult> {
    const bad = (error: string): OperationResult => ({ success: false, outputs: {}, error: `http.request: ${error}` });
    const url = typeof inputs.url === 'string' ? inputs.url : '';
    if (!/^https?:\/\//i.test(url)) return bad('url is required and must start with http:// or https://');
    const method = typeof inputs.method === 'string' ? inputs.method.toUpperCase() : '';
    if (!METHODS.includes(method)) return bad(`method must be one of ${METHODS.join(', ')}`);
    const timeoutS = inputs.timeout === undefined || inputs.timeout === '' ? DEFAULT_TIMEOUT_S : Number(inputs.timeout);
    if (!(timeoutS > 0)) return bad('timeout must be a number of seconds > 0');
    const maxBody = inputs.max_body_bytes === undefined ? DEFAULT_MAX_BODY : Number(inputs.max_body_bytes);
    if (!Number.isInteger(maxBody) || maxBody < 0 || maxBody > MAX_BODY_LIMIT)
      return bad(`max_body_bytes must be an integer from 0 to ${MAX_BODY_LIMIT}`);
    const headers = stringMap(inputs.headers);
    const body =
      inputs.body === undefined || inputs.body === ''
        ? undefined
        : typeof inputs.body === 'string'
          ? inputs.body
          : JSON.stringify(inputs.body);
    const allowed = Array.isArray(inputs.allowed_redirect_hosts) ? inputs.allowed_redirect_hosts.map(String) : [];
    const retryable = Array.isArray(inputs.retryable_status_codes) ? inputs.retryable_status_codes.map(Number) : [];
    const deadline = AbortSignal.timeout(timeoutS * 1000);
    const all = AbortSignal.any([signal, deadline]);
    try {
      const res = await this.follow(new URL(url), method, headers, body, allowed, all);
      if (typeof res === 'string') return bad(res);
      const { text, truncated } = await readCapped(res, maxBody);
      const outputs = {
        status_code: res.status,
        body: text,
        headers: Object.fromEntries(res.headers),
        body_truncated: truncated,
      };
      if (retryable.includes(res.status))
        return { success: false, outputs, error: `http.request: retryable status code ${res.status}` };
      return { success: true, outputs };
    } catch (err) {
      if (deadline.aborted) return bad(`request timed out after ${timeoutS} s`);
      if (signal.aborted) return bad('request cancelled');
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      return bad(cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err)));
    }
  }

  /** Follows redirects by hand, so each hop's host can be checked; a string is the refusal. */
  private async follow(
    start: URL,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    allowed: string[],
    signal: AbortSignal,
  ): Promise<Response | string> {
    let url = start;
    for (let hop = 0; ; hop++) {
      const res = await fetch(url, {
        method,
        headers,
        body: method === 'GET' || method === 'HEAD' ? undefined : body,
        redirect: 'manual',
        signal,
      });
      const location = res.headers.get('location');
      if (res.status < 300 || res.status > 399 || !location) return res;
      await res.body?.cancel();
      if (hop >= MAX_REDIRECTS) return `more than ${MAX_REDIRECTS} redirects`;
      const next = new URL(location, url);
      const sameHost = next.host === start.host && !(start.protocol === 'https:' && next.protocol === 'http:');
      if (!sameHost && !allowed.includes(next.host)) {
        return `redirect to ${next.protocol}//${next.host} refused (only the same host is followed; list it in allowed_redirect_hosts to allow it)`;
      }
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
      }
      url = next;
    }
  }
}

/** The body as text, cut at `cap` bytes (the rest is not read). */
export async function readCapped(res: Response, cap: number): Promise<{ text: string; truncated: boolean }> {
  if (!res.body) return { text: '', truncated: false };
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text: Buffer.concat(chunks).toString('utf8'), truncated: false };
    const room = cap - size;
    chunks.push(Buffer.from(value.subarray(0, Math.max(0, room))));
    size += value.length;
    if (size > cap) {
      await reader.cancel();
      return { text: Buffer.concat(chunks).toString('utf8'), truncated: true };
    }
  }
}

function stringMap(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
}
