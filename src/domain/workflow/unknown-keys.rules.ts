import { ErrorCodes } from '../errors/error-codes';
import { type KeySchema, STEP_KEYS, stepSchema, WORKFLOW_SCHEMA } from './known-keys';
import { type ValidationIssue, issue } from './validation-issue.model';
import { isMap, type Raw } from './raw-yaml';

/**
 * AWF ignores keys it does not know, so `retyr:` silently turns retries off. This walk reports
 * each one, with its path and the closest known key, as a warning (`--strict` makes them
 * errors). A key that belongs to another step type is named as such.
 */
export function checkUnknownKeys(doc: unknown): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  walk(doc, WORKFLOW_SCHEMA, '', out);
  return out;
}

function walk(value: unknown, schema: KeySchema, at: string, out: ValidationIssue[]): void {
  if (schema === 'free') return;
  if (schema === 'states') return walkStates(value, at, out);
  if ('list' in schema) {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, schema.list, `${at}[${i}]`, out));
    return;
  }
  if (isMap(value)) walkKeys(value, schema.keys, at, out);
}

function walkKeys(
  value: Raw,
  keys: Record<string, KeySchema | null>,
  at: string,
  out: ValidationIssue[],
  owner?: string,
): void {
  for (const [key, child] of Object.entries(value)) {
    const path = at ? `${at}.${key}` : key;
    if (key in keys) {
      const schema = keys[key];
      if (schema) walk(child, schema, path, out);
      continue;
    }
    out.push(issue(ErrorCodes.WORKFLOW_UNKNOWN_FIELD, path, describe(key, Object.keys(keys), owner), 'warning'));
  }
}

function walkStates(value: unknown, at: string, out: ValidationIssue[]): void {
  if (!isMap(value)) return;
  for (const [name, step] of Object.entries(value)) {
    // A `use_template` step left unexpanded has its own error (step-templates.ts).
    if (name === 'initial' || !isMap(step) || typeof step.type !== 'string' || 'use_template' in step) continue;
    const type = stepType(step.type);
    if (type) walkKeys(step, stepSchema(type), `${at}.${name}`, out, type);
    for (const key of Object.keys(NO_EFFECT).filter((k) => k in step))
      out.push(issue(ErrorCodes.WORKFLOW_NO_EFFECT, `${at}.${name}.${key}`, NO_EFFECT[key], 'warning'));
  }
}

/**
 * Step keys AWF parses and never acts on: named, with what does the job, rather than ignored in silence.
 * `depends_on` is checked against the routes instead (depends-on.rules.ts).
 */
const NO_EFFECT: Record<string, string> = {
  capture:
    "capture has no effect (nor in AWF): a step's output is always kept as {{.states.<step>.Output}} " +
    'and its stderr as {{.states.<step>.Stderr}}',
};

/** AWF's type names (lowercased; `command` is `step`; `<plugin>.<name>` is a plugin step); undefined if unknown. */
function stepType(raw: string): string | undefined {
  const t = raw.toLowerCase();
  if (t === 'command') return 'step';
  if (t.includes('.')) return 'plugin';
  return t in STEP_KEYS ? t : undefined;
}

function describe(key: string, known: string[], owner?: string): string {
  if (owner) {
    const elsewhere = Object.keys(STEP_KEYS).filter((t) => t !== owner && key in STEP_KEYS[t]);
    if (elsewhere.length > 0)
      return `"${key}" is not a key of a ${owner} step (it belongs to ${elsewhere.join(', ')} steps); it is ignored`;
  }
  const near = closest(key, known);
  return `unknown key "${key}"${near ? ` (did you mean "${near}"?)` : ''}; it is ignored`;
}

/** The known key at the smallest edit distance (a swap of two letters counts one), if near enough. */
export function closest(key: string, known: string[]): string | undefined {
  const limit = Math.min(3, Math.max(1, Math.floor(key.length / 3)));
  let best: { key: string; d: number } | undefined;
  for (const k of known) {
    const d = editDistance(key.toLowerCase(), k);
    if (d <= limit && (!best || d < best.d)) best = { key: k, d };
  }
  return best?.key;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
