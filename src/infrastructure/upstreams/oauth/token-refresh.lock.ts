import type { FetchLike, StoredOAuthTokens } from '@modelcontextprotocol/client';
import { lock } from 'proper-lockfile';
import type { OAuthCredentialsStore } from './oauth-credentials.store';

/**
 * How long a lock whose holder stopped touching it (a killed process) is honoured; the holder
 * touches it every half of that. A refresh is one request, well within.
 */
const STALE_MS = 10_000;
/** Waits of 50 ms to 250 ms, about 12 s in all: longer than a lock can stay stale. */
const RETRIES = { retries: 50, minTimeout: 50, maxTimeout: 250 };

/**
 * The fetch of a remote server's transport, with its refresh-token grants under a file lock on
 * the server's credentials (`<server>.json.lock`, proper-lockfile): the SDK's auth() reads the
 * tokens, refreshes and saves them, and an authorization server may take each refresh token
 * once. Under the lock the stored tokens are read again: when another process has refreshed
 * meanwhile (the stored access token is not the one the server just refused, or the stored
 * refresh token is not the one sent), its fresh tokens are the answer and nothing is asked of
 * the server; else the grant goes out and its tokens are saved before the lock is let go.
 * Every other request passes straight through.
 */
export function refreshLockedFetch(store: OAuthCredentialsStore, inner: FetchLike = fetch): FetchLike {
  /** The bearer token of this connection's last request the server answered 401. */
  let refused: string | undefined;
  return async (url, init) => {
    const sent = refreshTokenOf(init?.body);
    if (sent === undefined) {
      const response = await inner(url, init);
      if (response.status === 401) refused = bearerOf(init?.headers);
      return response;
    }
    const release = await lock(store.file, {
      realpath: false, // the credentials file may not exist yet
      lockfilePath: `${store.file}.lock`,
      stale: STALE_MS,
      retries: RETRIES,
      // A lock taken over as stale: this refresh still ends normally; the next one locks afresh.
      onCompromised: () => undefined,
    });
    try {
      const stored = store.read().tokens;
      const renewed = refused !== undefined && stored?.access_token !== refused;
      if (stored?.refresh_token && (renewed || stored.refresh_token !== sent)) return tokenResponse(stored);
      const response = await inner(url, init);
      if (!response.ok) return response;
      const text = await response.text();
      const fresh = parsedTokens(text);
      if (fresh) store.update({ tokens: { ...stored, ...fresh, refresh_token: fresh.refresh_token ?? sent } });
      return new Response(text, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } finally {
      refused = undefined;
      await release().catch(() => undefined);
    }
  };
}

/** The refresh token of a `grant_type=refresh_token` body (the SDK sends URLSearchParams). */
function refreshTokenOf(body: unknown): string | undefined {
  const params =
    body instanceof URLSearchParams ? body : typeof body === 'string' ? new URLSearchParams(body) : undefined;
  return params?.get('grant_type') === 'refresh_token' ? (params.get('refresh_token') ?? undefined) : undefined;
}

function bearerOf(headers: RequestInit['headers']): string | undefined {
  return /^Bearer (.+)$/i.exec(new Headers(headers).get('authorization') ?? '')?.[1];
}

/** The tokens another process saved, as the token endpoint would have answered (RFC 6749 §5.1). */
function tokenResponse(tokens: StoredOAuthTokens): Response {
  const { issuer: _issuer, ...body } = tokens as StoredOAuthTokens & { issuer?: string };
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
}

function parsedTokens(text: string): StoredOAuthTokens | undefined {
  try {
    const json = JSON.parse(text) as StoredOAuthTokens;
    return typeof json?.access_token === 'string' ? json : undefined;
  } catch {
    return undefined;
  }
}
