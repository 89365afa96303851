import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { Release } from './release-version';

/** One repository of a search answer (`GET /search/repositories`). */
export interface FoundRepository {
  full_name: string;
  description: string | null;
  stargazers_count: number;
}

const DEFAULT_API = 'https://api.github.com';
const TIMEOUT_MS = 30_000;
/** A release asset may be 100 MiB: its download gets longer than an API call. */
const DOWNLOAD_TIMEOUT_MS = 10 * 60_000;
const MAX_REDIRECTS = 5;
const MAX_JSON_BYTES = 10 * 1024 * 1024;

/**
 * The releases API that packs and plugins install from: GitHub's, or what `GITHUB_API_URL`
 * names (GitHub Enterprise, a mirror, a test's stand-in). `GITHUB_TOKEN` goes only to the API's
 * own origin: a download or a redirect to any other host is sent without it, so a release asset
 * served from a CDN never sees the token.
 */
export class GithubReleasesClient {
  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  get apiBase(): string {
    return (this.env.GITHUB_API_URL || DEFAULT_API).replace(/\/+$/, '');
  }

  async listReleases(repository: string): Promise<Release[]> {
    const body = await this.json(`${this.apiBase}/repos/${repository}/releases?per_page=100`, repository);
    if (!Array.isArray(body)) throw apiFailed(`the releases of ${repository} are not a JSON list`);
    return body as Release[];
  }

  /** AWF's search: repositories with the topic (and the words of `query`), most stars first. */
  async search(topic: string, query?: string): Promise<FoundRepository[]> {
    const q = [`topic:${topic}`, ...(query ? [query] : [])].join(' ');
    const params = new URLSearchParams({ q, sort: 'stars', order: 'desc' });
    const body = (await this.json(`${this.apiBase}/search/repositories?${params}`)) as { items?: unknown };
    if (!Array.isArray(body?.items)) throw apiFailed('the search answer has no items list');
    return body.items as FoundRepository[];
  }

  /** The body of `url` (a release asset), at most `maxBytes`, following redirects. */
  async download(url: string, maxBytes: number): Promise<Buffer> {
    const res = await this.get(url, 'application/octet-stream', DOWNLOAD_TIMEOUT_MS);
    if (!res.ok) throw statusError(res, url);
    return readCapped(res, maxBytes, url);
  }

  private async json(url: string, repository?: string): Promise<unknown> {
    const res = await this.get(url, 'application/vnd.github+json');
    if (res.status === 404 && repository) {
      throw new AwfError(
        ErrorCodes.RELEASE_NOT_FOUND,
        `repository ${repository} was not found at ${this.apiBase}`,
        { repository, api: this.apiBase },
        'Check owner/repo; a private repository needs GITHUB_TOKEN.',
      );
    }
    if (!res.ok) throw statusError(res, url);
    const text = (await readCapped(res, MAX_JSON_BYTES, url)).toString('utf8');
    try {
      return JSON.parse(text);
    } catch {
      throw apiFailed(`${redact(url)} did not answer JSON`);
    }
  }

  /** GET with redirects followed by hand, so the token is dropped when the origin changes. */
  private async get(url: string, accept: string, timeoutMs = TIMEOUT_MS): Promise<Response> {
    const apiOrigin = new URL(this.apiBase).origin;
    let current = new URL(url);
    for (let hop = 0; ; hop++) {
      const headers: Record<string, string> = { accept, 'user-agent': 'awf' };
      if (this.env.GITHUB_TOKEN && current.origin === apiOrigin) {
        headers.authorization = `Bearer ${this.env.GITHUB_TOKEN}`;
      }
      let res: Response;
      try {
        res = await fetch(current, { headers, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
      } catch (err) {
        const { cause } = err as { cause?: { code?: string; message?: string } };
        const why = cause?.code ?? cause?.message ?? (err as Error).message;
        throw new AwfError(
          ErrorCodes.RELEASE_UNREACHABLE,
          `cannot reach ${current.origin}: ${why}`,
          { url: redact(current.href) },
          'Check the network (and GITHUB_API_URL, if set), then try again.',
        );
      }
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return res;
      if (hop >= MAX_REDIRECTS) throw apiFailed(`${redact(url)} redirects more than ${MAX_REDIRECTS} times`);
      await res.body?.cancel();
      current = new URL(location, current);
    }
  }
}

function statusError(res: Response, url: string): AwfError {
  const limited =
    res.status === 429 ||
    res.status === 401 ||
    (res.status === 403 && res.headers.get('x-ratelimit-remaining') === '0');
  if (limited) {
    return new AwfError(
      ErrorCodes.RELEASE_RATE_LIMITED,
      res.status === 401
        ? `the releases API refused the token (HTTP 401) for ${redact(url)}`
        : `the releases API rate limit is spent (HTTP ${res.status})`,
      { status: res.status, reset: res.headers.get('x-ratelimit-reset') ?? undefined },
      res.status === 401 ? 'Set GITHUB_TOKEN to a valid token, or unset it.' : 'Set GITHUB_TOKEN for a higher limit.',
    );
  }
  if (res.status === 404) {
    return new AwfError(ErrorCodes.RELEASE_NOT_FOUND, `${redact(url)} was not found (HTTP 404)`, {
      url: redact(url),
    });
  }
  return apiFailed(`${redact(url)} answered HTTP ${res.status}`);
}

function apiFailed(message: string): AwfError {
  return new AwfError(
    ErrorCodes.RELEASE_API_FAILED,
    message,
    {},
    'Try again later; if GITHUB_API_URL is set, check that it points at a GitHub-compatible API.',
  );
}

async function readCapped(res: Response, maxBytes: number, url: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    size += chunk.length;
    if (size > maxBytes) {
      await res.body?.cancel();
      throw new AwfError(
        ErrorCodes.RELEASE_UNSAFE_ARCHIVE,
        `${redact(url)} is larger than ${maxBytes} bytes; nothing was installed`,
        { url: redact(url), maxBytes },
        'Ask the publisher for a smaller archive.',
      );
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** A URL as shown in messages: no query string (signed CDN URLs carry credentials there). */
function redact(url: string): string {
  return url.replace(/\?.*$/, '');
}
