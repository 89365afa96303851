// The dashboard's calls to the API of the server that served it (relative paths, so it also
// works behind a reverse proxy under a prefix). The session cookie goes along by itself.
import { h } from 'preact';
import htm from 'htm';

export const html = htm.bind(h);

/** The server asks for a token and this browser has no session. */
export class SignInNeeded extends Error {}

/** An RFC 7807 problem the API answered with: its detail, awf's code and hint. */
export class ApiError extends Error {
  constructor(problem, status) {
    super(problem?.detail ?? `HTTP ${status}`);
    this.code = problem?.code;
    this.hint = problem?.hint;
    this.status = status;
    this.problem = problem;
  }
}

/** One API call; resolves with the `body` of AWF's envelope. */
export async function api(method, path, body, headers = {}) {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 401) {
    dispatchEvent(new Event('awf:sign-in'));
    throw new SignInNeeded('sign in with a token');
  }
  const text = await res.text();
  const json = text ? JSON.parse(text) : undefined;
  if (!res.ok) throw new ApiError(json, res.status);
  return json?.body;
}

/** Trades a token for a session cookie (the page keeps neither). */
export function signIn(token) {
  return api('POST', 'api/session', undefined, { authorization: `Bearer ${token}` });
}

export const signOut = () => api('DELETE', 'api/session');

export function duration(ms) {
  if (ms === null || ms === undefined) return '';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export const time = (iso) => (iso ? new Date(iso).toLocaleString() : '');

export function Status({ status }) {
  return html`<span class=${`status status-${status}`}>${status}</span>`;
}

export function Problem({ error }) {
  if (!error) return null;
  return html`<div class="problem" role="alert">
    <strong>${error.code ?? 'error'}</strong> ${error.message}
    ${error.hint ? html`<div class="hint">${error.hint}</div>` : null}
  </div>`;
}
