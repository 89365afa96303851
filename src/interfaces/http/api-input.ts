import { type AwfError, isAwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { ApiProblem } from './problem';

/** AWF's success envelope: every body is `{"body": …}`. */
export const envelope = <T>(body: T): { body: T } => ({ body });

const REPO_SCOPES = new Set(['local', 'global', 'env']);
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
/** AWF's pack and pack-workflow names (its validation.ValidateName). */
const PACK_NAME = /^[a-z][a-z0-9-]*$/;

/**
 * AWF's `/api/workflows/{scope}/{name}`: `local`, `global` and `env` mean the name as the
 * lookup dirs resolve it; any other scope is an installed workflow pack, and the target is
 * `<pack>/<name>`, found as `awf run <pack>/<name>` finds it (AWF's recomposeIdentifier). Only
 * names reach the repository: no `..`, no `.yaml` file of the cwd, no path but `<pack>/<name>`.
 */
export function workflowTarget(scope: string, name: string): string {
  if (REPO_SCOPES.has(scope)) {
    if (NAME.test(name) && !name.includes('..') && !/\.ya?ml$/i.test(name)) return name;
  } else if (PACK_NAME.test(scope) && PACK_NAME.test(name)) return `${scope}/${name}`;
  const id = REPO_SCOPES.has(scope) ? name : `${scope}/${name}`;
  throw new ApiProblem(404, ErrorCodes.WORKFLOW_NOT_FOUND, `workflow not found: ${id}`, {
    hint: 'GET /api/workflows lists the workflows this server finds.',
  });
}

/** The JSON body as an object (absent: empty); anything else is a 400. */
export function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
  throw badRequest('the request body must be a JSON object');
}

/** A map of workflow inputs: strings as they are, numbers and booleans as text, lists and objects as JSON. */
export function inputsOf(value: unknown, field: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw badRequest(`"${field}" must be an object of input values`);
  const inputs: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null || v === undefined) continue;
    inputs[k] = typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
  return inputs;
}

export function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string') return value;
  throw badRequest(`"${field}" must be a string`);
}

export function badRequest(detail: string): ApiProblem {
  return new ApiProblem(400, ErrorCodes.SERVE_BAD_REQUEST, detail);
}

/** A page size: 1 to `max`, `fallback` when absent. */
export function limitOf(value: unknown, fallback: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (typeof value === 'string' && /^\d+$/.test(value) && n >= 1 && n <= max) return n;
  throw badRequest(`limit must be a whole number from 1 to ${max}`);
}

/** An RFC 3339 time of a query (`since`, `until`), as the history's ISO form. */
export function instantOf(value: unknown, field: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = typeof value === 'string' ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw badRequest(`${field} must be an RFC 3339 time, such as 2026-01-31T09:00:00Z`);
  return new Date(ms).toISOString();
}

/** The opaque `cursor` of GET /api/executions: where the last page ended. */
export function encodeCursor(run: { started_at: string; run_id: string }): string {
  return Buffer.from(JSON.stringify([run.started_at, run.run_id])).toString('base64url');
}

export function decodeCursor(value: unknown): { started_at: string; run_id: string } | undefined {
  if (value === undefined || value === '') return undefined;
  try {
    const [started_at, run_id] = JSON.parse(Buffer.from(String(value), 'base64url').toString('utf8')) as unknown[];
    if (typeof started_at === 'string' && typeof run_id === 'string') return { started_at, run_id };
  } catch {
    // falls through to the 400
  }
  throw badRequest('cursor is not one this server gave out (use next_cursor of the previous page)');
}

/** Runs the call; an AwfError with `code` becomes the problem `make` gives, anything else passes. */
export async function mapping<T>(
  call: () => Promise<T> | T,
  code: string,
  make: (err: AwfError) => ApiProblem,
): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (isAwfError(err) && err.code === code) throw make(err);
    throw err;
  }
}

export function executionNotFound(id: string): ApiProblem {
  return new ApiProblem(404, ErrorCodes.RUN_NOT_FOUND, `execution not found: ${id}`, {
    hint: 'GET /api/executions lists the runs the history holds.',
  });
}
