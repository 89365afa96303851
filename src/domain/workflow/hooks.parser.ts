import { ErrorCodes } from '../errors/error-codes';
import { type ValidationIssue, issue } from './validation-issue.model';
import type { HookAction, StepHooks, WorkflowHookName, WorkflowHooks } from './workflow.model';
import { isMap, text } from './raw-yaml';

/** `hooks:` of a workflow: AWF's four, each a list of `log:` or `command:` actions like a step's pre and post. */
export const WORKFLOW_HOOK_NAMES: WorkflowHookName[] = [
  'workflow_start',
  'workflow_end',
  'workflow_error',
  'workflow_cancel',
];

export function parseStepHooks(raw: unknown, at: string, issues: ValidationIssue[]): StepHooks | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isMap(raw)) {
    issues.push(issue(ErrorCodes.WORKFLOW_INVALID_FIELD, at, 'hooks must be a mapping with pre and/or post'));
    return undefined;
  }
  return { pre: hookList(raw.pre, `${at}.pre`, issues), post: hookList(raw.post, `${at}.post`, issues) };
}

export function parseWorkflowHooks(raw: unknown, issues: ValidationIssue[]): WorkflowHooks {
  if (raw === undefined || raw === null) return {};
  if (!isMap(raw)) {
    issues.push(
      issue(ErrorCodes.WORKFLOW_INVALID_FIELD, 'hooks', `hooks must be a mapping of ${WORKFLOW_HOOK_NAMES.join(', ')}`),
    );
    return {};
  }
  const hooks: WorkflowHooks = {};
  for (const name of WORKFLOW_HOOK_NAMES)
    if (raw[name] !== undefined) hooks[name] = hookList(raw[name], `hooks.${name}`, issues);
  return hooks;
}

function hookList(raw: unknown, at: string, issues: ValidationIssue[]): HookAction[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    issues.push(issue(ErrorCodes.WORKFLOW_INVALID_FIELD, at, 'a hook is a list of {log: …} or {command: …}'));
    return [];
  }
  const out: HookAction[] = [];
  raw.forEach((a, i) => {
    const log = isMap(a) ? text(a.log) : undefined;
    const command = isMap(a) ? text(a.command) : undefined;
    if ((log === undefined) === (command === undefined)) {
      issues.push(
        issue(ErrorCodes.WORKFLOW_INVALID_FIELD, `${at}[${i}]`, 'a hook action has exactly one of log or command'),
      );
    } else out.push(log !== undefined ? { log } : { command });
  });
  return out;
}
