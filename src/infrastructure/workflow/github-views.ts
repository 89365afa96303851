import { ErrorCodes } from '../../domain/errors/error-codes';
import { GithubFailure } from './github-failure';

type Json = Record<string, unknown>;

/** What get_issue / get_pr return without `fields` (AWF's lists, the fields it asked gh for). */
const DEFAULTS = {
  issue: ['number', 'title', 'body', 'state', 'labels'],
  pr: ['number', 'title', 'body', 'state', 'headRefName', 'baseRefName', 'mergeable', 'mergedAt', 'labels'],
};
/** Fields `fields:` may also ask for, named as gh names them. */
const EXTRA = {
  issue: ['url', 'author', 'assignees', 'createdAt', 'updatedAt', 'closedAt'],
  pr: ['url', 'author', 'assignees', 'createdAt', 'updatedAt', 'closedAt', 'isDraft', 'headRefOid'],
};

/** A REST issue in gh's JSON shape (camelCase names, upper-case state, labels {id, name, description, color}). */
export function issueView(d: Json): Json {
  const user = d.user as { login?: string } | null | undefined;
  return {
    number: d.number,
    title: d.title ?? '',
    body: d.body ?? '',
    state: String(d.state ?? '').toUpperCase(),
    labels: Array.isArray(d.labels) ? d.labels.map(label) : [],
    url: d.html_url,
    author: { login: user?.login ?? '' },
    assignees: Array.isArray(d.assignees) ? d.assignees.map((a: { login?: string }) => ({ login: a.login })) : [],
    createdAt: d.created_at,
    updatedAt: d.updated_at,
    closedAt: d.closed_at ?? null,
  };
}

/** A REST pull request in gh's shape: state MERGED once merged, mergeable MERGEABLE | CONFLICTING | UNKNOWN. */
export function pullView(d: Json): Json {
  const head = d.head as { ref?: string; sha?: string } | undefined;
  const base = d.base as { ref?: string } | undefined;
  return {
    ...issueView(d),
    state: d.merged_at ? 'MERGED' : String(d.state ?? '').toUpperCase(),
    headRefName: head?.ref ?? '',
    baseRefName: base?.ref ?? '',
    mergeable: d.mergeable === true ? 'MERGEABLE' : d.mergeable === false ? 'CONFLICTING' : 'UNKNOWN',
    mergedAt: d.merged_at ?? null,
    isDraft: d.draft === true,
    headRefOid: head?.sha ?? '',
  };
}

/** AWF's `fields` input (declared there, never applied): keep only the fields named. */
export function pickFields(view: Json, fields: string[] | undefined, kind: 'issue' | 'pr'): Json {
  const known = [...DEFAULTS[kind], ...EXTRA[kind]];
  const asked = fields ?? DEFAULTS[kind];
  const unknown = asked.filter((f) => !known.includes(f));
  if (unknown.length > 0)
    throw new GithubFailure(
      ErrorCodes.GITHUB_INVALID_INPUT,
      `fields: unknown field(s) ${unknown.join(', ')} (known: ${known.join(', ')})`,
    );
  return Object.fromEntries(asked.map((f) => [f, view[f]]));
}

function label(l: unknown): Json {
  if (typeof l === 'string') return { id: '', name: l, description: '', color: '' };
  const d = l as Json;
  return { id: d.node_id ?? String(d.id ?? ''), name: d.name, description: d.description ?? '', color: d.color ?? '' };
}
