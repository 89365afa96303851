import { ErrorCodes } from '../errors/error-codes';
import { type ValidationIssue, issue } from './validation-issue.model';
import {
  type CallWorkflowStep,
  type HookAction,
  type LoopStep,
  MAX_ALLOWED_ITERATIONS,
  type OperationStep,
  type ParallelStep,
  type ParallelStrategy,
  type StepHooks,
  type WorkflowHookName,
  type WorkflowHooks,
  type WorkflowOutput,
} from './workflow.model';
import { isMap, type Raw } from './raw-yaml';

/** The fields every step shares, already parsed by workflow.parser.ts. */
type Base = Omit<ParallelStep, 'type' | 'branches' | 'strategy' | 'maxConcurrent'>;

const STRATEGIES: ParallelStrategy[] = ['all_succeed', 'any_succeed', 'best_effort'];
export const WORKFLOW_HOOK_NAMES: WorkflowHookName[] = [
  'workflow_start',
  'workflow_end',
  'workflow_error',
  'workflow_cancel',
];

export function parseParallel(base: Base, raw: Raw, at: string, issues: ValidationIssue[]): ParallelStep {
  const branches = nameList(raw.parallel, `${at}.parallel`, 'parallel', issues);
  const strategy = raw.strategy === undefined || raw.strategy === '' ? 'all_succeed' : String(raw.strategy);
  if (!STRATEGIES.includes(strategy as ParallelStrategy)) {
    issues.push(
      issue(
        ErrorCodes.WORKFLOW_INVALID_FIELD,
        `${at}.strategy`,
        `strategy must be ${STRATEGIES.join(', ')}, not ${JSON.stringify(raw.strategy)}`,
      ),
    );
  }
  const max = raw.max_concurrent === undefined ? 0 : Number(raw.max_concurrent);
  if (!Number.isInteger(max) || max < 0) {
    issues.push(
      issue(
        ErrorCodes.WORKFLOW_INVALID_FIELD,
        `${at}.max_concurrent`,
        'max_concurrent must be an integer ≥ 0 (0: all branches at once)',
      ),
    );
  }
  return {
    ...base,
    type: 'parallel',
    branches,
    strategy: strategy as ParallelStrategy,
    maxConcurrent: Number.isInteger(max) && max > 0 ? max : 0,
  };
}

export function parseLoop(
  base: Base,
  type: 'for_each' | 'while',
  raw: Raw,
  at: string,
  issues: ValidationIssue[],
): LoopStep {
  const step: LoopStep = {
    ...base,
    type,
    body: nameList(raw.body, `${at}.body`, 'body', issues),
    breakWhen: text(raw.break_when),
    onComplete: text(raw.on_complete),
  };
  if (type === 'for_each') {
    // A YAML list is kept as JSON text, as AWF converts it, so one path resolves both forms.
    step.items = Array.isArray(raw.items) ? JSON.stringify(raw.items) : text(raw.items);
    if (!step.items)
      issues.push(
        issue(
          ErrorCodes.WORKFLOW_MISSING_FIELD,
          `${at}.items`,
          'a for_each needs items (a list, a JSON array, or a template giving one)',
        ),
      );
  } else {
    step.condition = text(raw.while);
    if (!step.condition)
      issues.push(issue(ErrorCodes.WORKFLOW_MISSING_FIELD, `${at}.while`, 'a while loop needs a `while:` condition'));
  }
  const max = raw.max_iterations;
  if (max === undefined || max === null) return step;
  const n =
    typeof max === 'number' ? max : typeof max === 'string' && /^\s*-?\d+\s*$/.test(max) ? Number(max) : undefined;
  if (n === undefined && typeof max === 'string' && max.trim()) step.maxIterationsExpr = max;
  else if (n === undefined || !Number.isInteger(n) || n < 1 || n > MAX_ALLOWED_ITERATIONS) {
    issues.push(
      issue(
        ErrorCodes.WORKFLOW_INVALID_FIELD,
        `${at}.max_iterations`,
        `max_iterations must be an integer from 1 to ${MAX_ALLOWED_ITERATIONS}, or a template giving one; not ${JSON.stringify(max)}`,
      ),
    );
  } else step.maxIterations = n;
  return step;
}

/** AWF parses the fields flat on the step; its docs show them nested under `call_workflow:`, so both are read. */
export function parseCallWorkflow(base: Base, raw: Raw, at: string, issues: ValidationIssue[]): CallWorkflowStep {
  const src = isMap(raw.call_workflow) ? { ...raw, ...raw.call_workflow } : raw;
  const workflow = text(src.workflow);
  if (!workflow)
    issues.push(
      issue(
        ErrorCodes.WORKFLOW_MISSING_FIELD,
        `${at}.workflow`,
        'a call_workflow step needs the name of the workflow to call',
      ),
    );
  return {
    ...base,
    type: 'call_workflow',
    workflow: workflow ?? '',
    inputs: stringMap(src.inputs, `${at}.inputs`, issues),
    outputs: stringMap(src.outputs, `${at}.outputs`, issues),
  };
}

export function parseOperation(base: Base, raw: Raw, at: string, issues: ValidationIssue[]): OperationStep {
  const operation = text(raw.operation);
  if (!operation)
    issues.push(
      issue(
        ErrorCodes.WORKFLOW_MISSING_FIELD,
        `${at}.operation`,
        'an operation step needs `operation: <plugin>.<operation>`',
      ),
    );
  else if (!/^[^.\s]+\.[^\s]+$/.test(operation))
    issues.push(
      issue(
        ErrorCodes.WORKFLOW_INVALID_FIELD,
        `${at}.operation`,
        `operation must be <plugin>.<operation>, not "${operation}"`,
      ),
    );
  if (raw.inputs !== undefined && raw.inputs !== null && !isMap(raw.inputs))
    issues.push(issue(ErrorCodes.WORKFLOW_INVALID_FIELD, `${at}.inputs`, 'inputs must be a mapping'));
  return { ...base, type: 'operation', operation: operation ?? '', inputs: isMap(raw.inputs) ? raw.inputs : {} };
}

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

function nameList(raw: unknown, at: string, key: string, issues: ValidationIssue[]): string[] {
  if (!Array.isArray(raw) || raw.length === 0 || raw.some((n) => typeof n !== 'string' || !n)) {
    issues.push(
      issue(
        raw === undefined ? ErrorCodes.WORKFLOW_MISSING_FIELD : ErrorCodes.WORKFLOW_INVALID_FIELD,
        at,
        `${key} must be a non-empty list of state names`,
      ),
    );
    return Array.isArray(raw) ? raw.filter((n): n is string => typeof n === 'string' && !!n) : [];
  }
  const seen = new Set<string>();
  for (const n of raw as string[]) {
    if (seen.has(n))
      issues.push(issue(ErrorCodes.WORKFLOW_INVALID_FIELD, at, `state "${n}" is listed twice in ${key}`));
    seen.add(n);
  }
  return raw as string[];
}

function stringMap(raw: unknown, at: string, issues: ValidationIssue[]): Record<string, string> {
  if (raw === undefined || raw === null) return {};
  if (!isMap(raw)) {
    issues.push(issue(ErrorCodes.WORKFLOW_INVALID_FIELD, at, 'expected a mapping of names to values'));
    return {};
  }
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
}

/** Scalars as text: `while: true` and `items: 3` are written without quotes in YAML. */
function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
}
