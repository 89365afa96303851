import { createHash } from 'node:crypto';
import { linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as tar from 'tar';

/**
 * A stand-in for GitHub's releases API on 127.0.0.1, in its wire format: `GET
 * /repos/{owner}/{repo}/releases` (a JSON list of `{tag_name, prerelease, draft, assets:[{name,
 * browser_download_url, size, ...}]}`), `GET /search/repositories` (`{total_count,
 * incomplete_results, items}`), 404 `{"message":"Not Found"}`, rate-limit 403s with
 * `x-ratelimit-remaining: 0`. Asset downloads answer 302 to a second server (another origin, as
 * GitHub sends them to its CDN), so a test sees which requests carried the token.
 */
export interface SeenRequest {
  server: 'api' | 'cdn';
  path: string;
  authorization?: string;
}

export interface StandInRelease {
  tag: string;
  prerelease?: boolean;
  /** Asset name → bytes; a `checksums.txt` is added for them unless `checksums` is given. */
  assets: Record<string, Buffer>;
  checksums?: string;
}

export class ReleasesApi {
  readonly seen: SeenRequest[] = [];
  readonly repos = new Map<string, StandInRelease[]>();
  readonly topics = new Map<string, { full_name: string; description: string; stargazers_count: number }[]>();
  rateLimited = false;
  private api?: Server;
  private cdn?: Server;

  get url(): string {
    return `http://127.0.0.1:${(this.api!.address() as AddressInfo).port}`;
  }

  private get cdnUrl(): string {
    return `http://127.0.0.1:${(this.cdn!.address() as AddressInfo).port}`;
  }

  async start(): Promise<this> {
    this.cdn = await listen((req, res) => this.serveCdn(req, res));
    this.api = await listen((req, res) => this.serveApi(req, res));
    return this;
  }

  async stop(): Promise<void> {
    await Promise.all([this.api, this.cdn].map((s) => new Promise((r) => s?.close(r))));
  }

  private serveApi(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', this.url);
    this.seen.push({ server: 'api', path: url.pathname + url.search, authorization: req.headers.authorization });
    if (this.rateLimited) {
      res.writeHead(403, { 'content-type': 'application/json', 'x-ratelimit-remaining': '0' });
      res.end(JSON.stringify({ message: 'API rate limit exceeded for 127.0.0.1.' }));
      return;
    }
    const list = /^\/repos\/([^/]+\/[^/]+)\/releases$/.exec(url.pathname);
    const asset = /^\/download\/([^/]+\/[^/]+)\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (list && this.repos.has(list[1])) return json(res, 200, this.releases(list[1]));
    if (asset) {
      res.writeHead(302, { location: `${this.cdnUrl}/cdn/${asset[1]}/${asset[2]}/${asset[3]}?sig=abc` });
      res.end();
      return;
    }
    if (url.pathname === '/search/repositories') {
      const [topic, ...words] = (url.searchParams.get('q') ?? '').split(' ');
      const items = (this.topics.get(topic.replace(/^topic:/, '')) ?? []).filter((i) =>
        words.every((w) => `${i.full_name} ${i.description}`.includes(w)),
      );
      return json(res, 200, { total_count: items.length, incomplete_results: false, items });
    }
    json(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
  }

  private serveCdn(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', this.cdnUrl);
    this.seen.push({ server: 'cdn', path: url.pathname, authorization: req.headers.authorization });
    const m = /^\/cdn\/([^/]+\/[^/]+)\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    const release = m && this.repos.get(m[1])?.find((r) => r.tag === m[2]);
    const body = release && m && assetsOf(release)[m[3]];
    if (!body) return json(res, 404, { message: 'Not Found' });
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
    res.end(body);
  }

  private releases(repo: string) {
    return this.repos.get(repo)!.map((r, i) => ({
      url: `${this.url}/repos/${repo}/releases/${i + 1}`,
      id: i + 1,
      tag_name: r.tag,
      name: r.tag,
      draft: false,
      prerelease: r.prerelease ?? false,
      created_at: '2026-01-01T00:00:00Z',
      published_at: '2026-01-01T00:00:00Z',
      assets: Object.entries(assetsOf(r)).map(([name, body], j) => ({
        id: j + 1,
        name,
        content_type: 'application/octet-stream',
        state: 'uploaded',
        size: body.length,
        browser_download_url: `${this.url}/download/${repo}/${r.tag}/${name}`,
      })),
    }));
  }
}

function assetsOf(release: StandInRelease): Record<string, Buffer> {
  const sums =
    release.checksums ??
    Object.entries(release.assets)
      .map(([name, body]) => `${createHash('sha256').update(body).digest('hex')}  ${name}\n`)
      .join('');
  return { ...release.assets, 'checksums.txt': Buffer.from(sums) };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-ratelimit-remaining': '59' });
  res.end(JSON.stringify(body));
}

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer(handler);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/** What an archive holds: files (a string, or `{body, mode}`), and the hostile entries tests need. */
export interface ArchiveSpec {
  files: Record<string, string | { body: string | Buffer; mode: number }>;
  symlink?: { name: string; to: string };
  hardlink?: { name: string; to: string };
  /** Added with its path kept as written (`../x`, `/tmp/x`). */
  rawPath?: string;
}

/** A real .tar.gz, written by the `tar` package as release tools write one. */
export async function tarGz(spec: ArchiveSpec): Promise<Buffer> {
  const work = mkdtempSync(join(tmpdir(), 'awf-archive-'));
  const root = join(work, 'a', 'root');
  try {
    const names: string[] = [];
    for (const [name, content] of Object.entries(spec.files)) {
      mkdirSync(dirname(join(root, name)), { recursive: true });
      const c = typeof content === 'string' ? { body: content, mode: 0o644 } : content;
      writeFileSync(join(root, name), c.body, { mode: c.mode });
      names.push(name);
    }
    mkdirSync(root, { recursive: true });
    if (spec.symlink) symlinkSync(spec.symlink.to, join(root, spec.symlink.name));
    if (spec.hardlink) linkSync(join(root, spec.hardlink.to), join(root, spec.hardlink.name));
    for (const link of [spec.symlink, spec.hardlink]) if (link) names.push(link.name);
    if (spec.rawPath) {
      const target = spec.rawPath.startsWith('/') ? spec.rawPath : join(root, spec.rawPath);
      writeFileSync(target, 'escaped\n');
      names.push(spec.rawPath);
    }
    // Gzipped afterwards: tar's own gzip stream can fail when the archive ends on a hard link.
    const file = join(work, 'out.tar');
    await tar.c({ file, cwd: root, portable: true, preservePaths: !!spec.rawPath }, names);
    return gzipSync(readFileSync(file));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
