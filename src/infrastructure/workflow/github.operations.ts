import { ErrorCodes } from '../../domain/errors/error-codes';
import type { BuiltinOperation, OperationResult } from '../../domain/workflow/ports/builtin-operation.port';
import { GithubBatchOperation } from './github-batch.operation';
import { GithubFailure } from './github-failure';
import { GithubRestClient, unexpected } from './github-rest.client';
import { issueView, pickFields, pullView } from './github-views';

type Inputs = Record<string, unknown>;
type Handler = (inputs: Inputs, client: GithubRestClient, signal: AbortSignal) => Promise<Record<string, unknown>>;

const MAX_COMMENTS = 1000;

/**
 * AWF's seven single `github.*` operations (its cli/plugins.go registers them with github.batch),
 * over GitHub's REST API rather than the gh CLI. Inputs and `.states.X.Response.*` names are
 * AWF's, and so are the values' shapes where gh printed them (state OPEN/CLOSED/MERGED, labels
 * as {id, name, description, color}, created numbers as strings).
 */
const HANDLERS: Record<string, Handler> = {
  async get_issue(inputs, client, signal) {
    const n = number(inputs.number, 'number');
    const repo = await client.access.repository(inputs.repo);
    const { data } = await client.request('GET', `repos/${repo}/issues/${n}`, `issue #${n} of ${repo}`, signal);
    return pickFields(issueView(object(data, 'get_issue')), strings(inputs.fields), 'issue');
  },
  async get_pr(inputs, client, signal) {
    const n = number(inputs.number, 'number');
    const repo = await client.access.repository(inputs.repo);
    const { data } = await client.request('GET', `repos/${repo}/pulls/${n}`, `pull request #${n} of ${repo}`, signal);
    return pickFields(pullView(object(data, 'get_pr')), strings(inputs.fields), 'pr');
  },
  async create_issue(inputs, client, signal) {
    const title = required(inputs.title, 'title');
    const repo = await client.access.repository(inputs.repo);
    const body = {
      title,
      body: text(inputs.body) || undefined,
      labels: strings(inputs.labels),
      assignees: strings(inputs.assignees),
    };
    const { data } = await client.request('POST', `repos/${repo}/issues`, `creating an issue in ${repo}`, signal, body);
    const made = object(data, 'create_issue');
    return { number: String(made.number), url: String(made.html_url ?? '') };
  },
  async create_pr(inputs, client, signal) {
    const [title, head, base] = [
      required(inputs.title, 'title'),
      required(inputs.head, 'head'),
      required(inputs.base, 'base'),
    ];
    const repo = await client.access.repository(inputs.repo);
    const body = { title, head, base, body: text(inputs.body) || undefined, draft: flag(inputs.draft) || undefined };
    try {
      const { data } = await client.request(
        'POST',
        `repos/${repo}/pulls`,
        `creating a pull request in ${repo}`,
        signal,
        body,
      );
      const made = object(data, 'create_pr');
      return { number: String(made.number), url: String(made.html_url ?? ''), already_exists: 'false' };
    } catch (err) {
      // As AWF: an open pull request for the same head is not a failure; its number and url are returned.
      if (!(
        err instanceof GithubFailure &&
        err.code === ErrorCodes.GITHUB_REJECTED &&
        /already exists/i.test(err.message)
      ))
        throw err;
      const owner = head.includes(':') ? head : `${repo.split('/')[0]}:${head}`;
      const query = `repos/${repo}/pulls?state=open&head=${encodeURIComponent(owner)}&base=${encodeURIComponent(base)}`;
      const { data } = await client.request('GET', query, `the open pull request from ${head}`, signal);
      const open = Array.isArray(data) && data.length > 0 ? object(data[0], 'create_pr') : undefined;
      if (!open) throw err;
      return { number: String(open.number), url: String(open.html_url ?? ''), already_exists: 'true' };
    }
  },
  async add_labels(inputs, client, signal) {
    const n = number(inputs.number, 'number');
    const labels = strings(inputs.labels);
    if (!labels?.length) throw invalid('labels is required (a list of label names)');
    const repo = await client.access.repository(inputs.repo);
    await client.request('POST', `repos/${repo}/issues/${n}/labels`, `labelling #${n} of ${repo}`, signal, { labels });
    return { labels: labels.join(',') };
  },
  async list_comments(inputs, client, signal) {
    const n = number(inputs.number, 'number');
    const limit = inputs.limit === undefined || inputs.limit === '' ? MAX_COMMENTS : number(inputs.limit, 'limit');
    if (limit > MAX_COMMENTS) throw invalid(`limit must be at most ${MAX_COMMENTS}`);
    const repo = await client.access.repository(inputs.repo);
    const raw = await client.list(
      `repos/${repo}/issues/${n}/comments`,
      `the comments of #${n} of ${repo}`,
      limit,
      signal,
    );
    const comments = raw.map((c) => {
      const d = object(c, 'list_comments');
      const user = d.user as { login?: string } | null;
      return {
        id: d.node_id ?? String(d.id),
        author: { login: user?.login ?? '' },
        authorAssociation: d.author_association ?? 'NONE',
        body: d.body ?? '',
        createdAt: d.created_at,
        url: d.html_url,
      };
    });
    return { comments, total: comments.length };
  },
  async add_comment(inputs, client, signal) {
    const n = number(inputs.number, 'number');
    const body = required(inputs.body, 'body');
    const repo = await client.access.repository(inputs.repo);
    const { data } = await client.request(
      'POST',
      `repos/${repo}/issues/${n}/comments`,
      `commenting on #${n} of ${repo}`,
      signal,
      { body },
    );
    const made = object(data, 'add_comment');
    return { comment_id: String(made.id), url: String(made.html_url ?? '') };
  },
};

/** A `github.<op>` built-in: a GithubFailure becomes a failed result carrying its code. */
export class GithubOperation implements BuiltinOperation {
  constructor(
    readonly name: string,
    private readonly handler: Handler,
    private readonly client: GithubRestClient,
  ) {}

  async execute(inputs: Inputs, signal: AbortSignal): Promise<OperationResult> {
    try {
      return { success: true, outputs: await this.handler(inputs, this.client, signal) };
    } catch (err) {
      if (!(err instanceof GithubFailure)) throw err;
      return { success: false, outputs: {}, error: err.message, code: err.code };
    }
  }
}

/** The eight operations, sharing one client (so one token look-up and one remote look-up). */
export function githubOperations(client = new GithubRestClient()): BuiltinOperation[] {
  const singles = Object.entries(HANDLERS).map(([op, h]) => new GithubOperation(`github.${op}`, h, client));
  return [...singles, new GithubBatchOperation(singles)];
}

export const GITHUB_OPERATION_NAMES = [...Object.keys(HANDLERS).map((op) => `github.${op}`), 'github.batch'];

function invalid(message: string): GithubFailure {
  return new GithubFailure(ErrorCodes.GITHUB_INVALID_INPUT, message);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : value === undefined || value === null ? '' : String(value);
}

function required(value: unknown, name: string): string {
  const s = text(value);
  if (!s) throw invalid(`${name} is required`);
  return s;
}

/** A positive integer, given as a number or as text (a template renders to text). */
export function number(value: unknown, name: string): number {
  const s = text(value).replace(/^#/, '');
  if (!/^[1-9][0-9]*$/.test(s)) throw invalid(`${name} must be a positive integer, not "${s}"`);
  return Number(s);
}

/** A list of names: a YAML list, a JSON list or text split at commas (a template renders a list as JSON). */
export function strings(value: unknown): string[] | undefined {
  const raw = text(value);
  if (!Array.isArray(value) && raw.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (Array.isArray(parsed)) return strings(parsed);
    } catch {
      // not JSON: split at commas below
    }
  }
  const items = Array.isArray(value) ? value.map(text) : raw.split(',');
  const out = items.map((s) => s.trim()).filter(Boolean);
  return out.length ? out : undefined;
}

function flag(value: unknown): boolean {
  return value === true || value === 'true' || value === 'draft';
}

function object(data: unknown, op: string): Record<string, unknown> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw unexpected(`github.${op}`);
  return data as Record<string, unknown>;
}
