import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for GitHub's REST API on 127.0.0.1 (GitHub cannot be reached here), speaking its
 * wire format for the endpoints the github.* operations use: the JSON shapes, status codes and
 * error bodies GitHub documents, `x-ratelimit-*` on every answer, Link pagination, 403 for a
 * read-only token with `x-accepted-github-permissions`, 401 "Bad credentials", 422 "Validation
 * Failed" for a second pull request from the same head. Every request is recorded.
 */
export interface SeenRequest {
  method: string;
  path: string;
  authorization?: string;
  apiVersion?: string;
  accept?: string;
  body?: unknown;
}

interface Issue {
  number: number;
  title: string;
  body: string | null;
  state: 'open' | 'closed';
  labels: string[];
  assignees: string[];
  pull?: { head: string; base: string; merged_at: string | null; mergeable: boolean | null; draft: boolean };
  comments: { id: number; body: string; user: string; created_at: string }[];
}

export class FakeGithub {
  readonly seen: SeenRequest[] = [];
  /** Tokens GitHub knows; a read-only one gets 403 on writes. */
  tokens = new Map([
    ['ghp_writer', 'write'],
    ['ghp_reader', 'read'],
  ]);
  /** Requests left before the core rate limit is spent. */
  remaining = 5000;
  readonly resetAt = Math.floor(Date.now() / 1000) + 1800;
  readonly repos = new Map<string, Map<number, Issue>>();
  private server?: Server;
  private nextId = 9000;
  base = '';

  seed(repo: string, issue: Partial<Issue> & { number: number; title: string }): void {
    const issues = this.repos.get(repo) ?? new Map<number, Issue>();
    issues.set(issue.number, { body: null, state: 'open', labels: [], assignees: [], comments: [], ...issue });
    this.repos.set(repo, issues);
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => this.handle(req, res, raw));
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.base;
  }

  async stop(): Promise<void> {
    await new Promise((r) => this.server?.close(r));
  }

  private handle(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const url = new URL(req.url ?? '/', this.base);
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
    const h = (n: string) => req.headers[n] as string | undefined;
    this.seen.push({
      method: req.method ?? '',
      path: url.pathname + url.search,
      authorization: h('authorization'),
      apiVersion: h('x-github-api-version'),
      accept: h('accept'),
      body,
    });
    const send = (status: number, data: unknown, extra: Record<string, string> = {}) => {
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'x-ratelimit-limit': '5000',
        'x-ratelimit-remaining': String(Math.max(0, this.remaining)),
        'x-ratelimit-reset': String(this.resetAt),
        'x-ratelimit-resource': 'core',
        'x-github-api-version-selected': '2022-11-28',
        ...extra,
      });
      res.end(JSON.stringify(data));
    };
    const docs = 'https://docs.github.com/rest';
    const error = (status: number, message: string, extra?: Record<string, string>, more?: object) =>
      send(status, { message, documentation_url: docs, status: String(status), ...more }, extra);
    const access = this.tokens.get((h('authorization') ?? '').replace(/^Bearer /, ''));
    if (!access) return error(401, 'Bad credentials');
    if (this.remaining-- <= 0) return error(403, 'API rate limit exceeded for user ID 1.');
    const m = /^\/repos\/([^/]+\/[^/]+)\/(issues|pulls)(?:\/(\d+))?(?:\/(comments|labels))?$/.exec(url.pathname);
    const issues = m && this.repos.get(m[1]);
    if (!m || !issues) return error(404, 'Not Found');
    const [, repo, kind, num, sub] = m;
    const write = req.method !== 'GET';
    if (write && access !== 'write')
      return error(403, 'Resource not accessible by personal access token', {
        'x-accepted-github-permissions': kind === 'pulls' && !sub ? 'pull_requests=write' : 'issues=write',
      });
    const issue = num ? issues.get(Number(num)) : undefined;
    if (num && (!issue || (kind === 'pulls' && !issue.pull))) return error(404, 'Not Found');
    if (!num && req.method === 'POST') return this.create(repo, kind, issues, body ?? {}, send, error);
    if (!num && kind === 'pulls') {
      const head = url.searchParams.get('head')?.split(':').pop();
      const open = [...issues.values()].filter((i) => i.pull && i.state === 'open' && i.pull.head === head);
      return send(
        200,
        open.map((i) => this.view(repo, i)),
      );
    }
    if (!issue) return error(404, 'Not Found');
    if (sub === 'labels') {
      issue.labels.push(...(body!.labels as string[]).filter((l) => !issue.labels.includes(l)));
      return send(
        200,
        issue.labels.map((l) => this.label(l)),
      );
    }
    if (sub === 'comments' && req.method === 'POST') {
      const c = { id: this.nextId++, body: String(body!.body), user: 'octocat', created_at: new Date().toISOString() };
      issue.comments.push(c);
      return send(201, this.comment(repo, issue, c));
    }
    if (sub === 'comments') return this.page(repo, issue, url, send);
    return send(200, this.view(repo, issue));
  }

  private create(
    repo: string,
    kind: string,
    issues: Map<number, Issue>,
    body: Record<string, unknown>,
    send: (s: number, d: unknown) => void,
    error: (s: number, m: string, e?: Record<string, string>, more?: object) => void,
  ): void {
    if (!body.title)
      return error(422, 'Validation Failed', undefined, {
        errors: [{ resource: 'Issue', code: 'missing_field', field: 'title' }],
      });
    const head = String(body.head ?? '');
    if (kind === 'pulls' && [...issues.values()].some((i) => i.pull?.head === head && i.state === 'open'))
      return error(422, 'Validation Failed', undefined, {
        errors: [
          {
            resource: 'PullRequest',
            code: 'custom',
            message: `A pull request already exists for ${repo.split('/')[0]}:${head}.`,
          },
        ],
      });
    if (kind === 'pulls' && head === 'no-such-branch')
      return error(422, 'Validation Failed', undefined, {
        errors: [{ resource: 'PullRequest', field: 'head', code: 'invalid' }],
      });
    const number = Math.max(0, ...issues.keys()) + 1;
    const pull =
      kind === 'pulls'
        ? { head, base: String(body.base), merged_at: null, mergeable: null, draft: body.draft === true }
        : undefined;
    const labels = (body.labels as string[] | undefined) ?? [];
    const assignees = (body.assignees as string[] | undefined) ?? [];
    const issue: Issue = {
      number,
      title: String(body.title),
      body: (body.body as string) ?? null,
      state: 'open',
      labels,
      assignees,
      pull,
      comments: [],
    };
    issues.set(number, issue);
    send(201, this.view(repo, issue));
  }

  private page(
    repo: string,
    issue: Issue,
    url: URL,
    send: (s: number, d: unknown, e?: Record<string, string>) => void,
  ): void {
    const per = Number(url.searchParams.get('per_page') ?? 30);
    const page = Number(url.searchParams.get('page') ?? 1);
    const all = issue.comments.map((c) => this.comment(repo, issue, c));
    const last = Math.max(1, Math.ceil(all.length / per));
    const at = (p: number) => `<${this.base}${url.pathname}?per_page=${per}&page=${p}>`;
    const link: Record<string, string> =
      page < last ? { link: `${at(page + 1)}; rel="next", ${at(last)}; rel="last"` } : {};
    send(200, all.slice((page - 1) * per, page * per), link);
  }

  private view(repo: string, i: Issue): Record<string, unknown> {
    const web = `https://github.example/${repo}/${i.pull ? 'pull' : 'issues'}/${i.number}`;
    const common = {
      url: `${this.base}/repos/${repo}/${i.pull ? 'pulls' : 'issues'}/${i.number}`,
      html_url: web,
      id: 1000 + i.number,
      node_id: `${i.pull ? 'PR' : 'I'}_kw${i.number}`,
      number: i.number,
      title: i.title,
      user: { login: 'octocat', id: 1, type: 'User' },
      labels: i.labels.map((l) => this.label(l)),
      state: i.state,
      locked: false,
      assignees: i.assignees.map((login) => ({ login, id: 2, type: 'User' })),
      comments: i.comments.length,
      created_at: '2026-11-30T10:00:00Z',
      updated_at: '2026-12-01T09:00:00Z',
      closed_at: i.state === 'closed' ? '2026-12-01T09:00:00Z' : null,
      author_association: 'OWNER',
      body: i.body,
    };
    if (!i.pull) return common;
    return {
      ...common,
      draft: i.pull.draft,
      merged_at: i.pull.merged_at,
      mergeable: i.pull.mergeable,
      head: { label: `${repo.split('/')[0]}:${i.pull.head}`, ref: i.pull.head, sha: 'a1b2c3d4' },
      base: { label: `${repo.split('/')[0]}:${i.pull.base}`, ref: i.pull.base, sha: 'e5f6a7b8' },
    };
  }

  private label(name: string): Record<string, unknown> {
    return {
      id: 7000 + name.length,
      node_id: `LA_${name}`,
      url: `${this.base}/labels/${name}`,
      name,
      color: 'd73a4a',
      default: false,
      description: null,
    };
  }

  private comment(repo: string, i: Issue, c: Issue['comments'][number]): Record<string, unknown> {
    return {
      id: c.id,
      node_id: `IC_kw${c.id}`,
      html_url: `https://github.example/${repo}/issues/${i.number}#issuecomment-${c.id}`,
      body: c.body,
      user: { login: c.user, id: 1, type: 'User' },
      created_at: c.created_at,
      updated_at: c.created_at,
      author_association: 'OWNER',
    };
  }
}
