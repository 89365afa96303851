import { ErrorCodes } from '../errors/error-codes';
import { type ValidationIssue, issue } from './validation-issue.model';
import type { WorkflowEnv, WorkflowOutput } from './workflow.model';
import { isMap, text } from './raw-yaml';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Top-level `env`. AWF's form is a list of names: variables the workflow needs, which awf checks
 * are set before the first step (AWF parses the list and never reads it). awf also takes a
 * mapping, name → value, as GitHub Actions writes it: set for every command, hook and agent of
 * the run, and readable as `{{.env.NAME}}`.
 */
export function parseWorkflowEnv(raw: unknown, issues: ValidationIssue[]): WorkflowEnv | undefined {
  if (raw === undefined || raw === null) return undefined;
  const bad = (at: string, why: string) => void issues.push(issue(ErrorCodes.WORKFLOW_INVALID_FIELD, at, why));
  if (Array.isArray(raw)) {
    const required: string[] = [];
    raw.forEach((name, i) => {
      if (typeof name === 'string' && ENV_NAME.test(name)) required.push(name);
      else bad(`env[${i}]`, `an environment variable name is letters, digits and _, not ${JSON.stringify(name)}`);
    });
    return { required, set: {} };
  }
  if (typeof raw !== 'object') {
    bad('env', 'env must be a list of variable names (that must be set) or a mapping NAME: value (set for the run)');
    return undefined;
  }
  const set: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!ENV_NAME.test(name)) bad(`env.${name}`, 'an environment variable name is letters, digits and _');
    else if (value === null || typeof value === 'object')
      bad(`env.${name}`, 'the value must be text, a number or a boolean');
    else set[name] = String(value);
  }
  return { required: [], set };
}

/** `tags`: a list of words (AWF's `[]string`); `awf list --tag` filters on them. */
export function parseTags(raw: unknown, issues: ValidationIssue[]): string[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  const list = typeof raw === 'string' ? raw.split(',') : raw;
  if (!Array.isArray(list) || list.some((t) => typeof t !== 'string' && typeof t !== 'number')) {
    issues.push(issue(ErrorCodes.WORKFLOW_INVALID_FIELD, 'tags', 'tags must be a list of words'));
    return undefined;
  }
  return list.map((t) => String(t).trim()).filter(Boolean);
}

/** AWF's loader ignores a child's `outputs:`; awf reads it so `call_workflow.outputs` can name them. */
export function parseWorkflowOutputs(raw: unknown, issues: ValidationIssue[]): WorkflowOutput[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    issues.push(issue(ErrorCodes.WORKFLOW_INVALID_FIELD, 'outputs', 'outputs must be a list of {name, from}'));
    return [];
  }
  const out: WorkflowOutput[] = [];
  raw.forEach((o, i) => {
    const name = isMap(o) ? text(o.name) : undefined;
    const from = isMap(o) ? text(o.from) : undefined;
    if (name && from) out.push({ name, from });
    else
      issues.push(
        issue(
          ErrorCodes.WORKFLOW_MISSING_FIELD,
          `outputs[${i}]`,
          'an output needs a name and a from (e.g. states.build.Output)',
        ),
      );
  });
  return out;
}
