import { ErrorCodes } from '../errors/error-codes';
import { type ValidationIssue, issue } from './validation-issue.model';
import {
  type CallWorkflowStep,
  type LoopStep,
  MAX_ALLOWED_ITERATIONS,
  type OperationStep,
  type ParallelStep,
  type ParallelStrategy,
} from './workflow.model';
import { isMap, type Raw, text } from './raw-yaml';

/** The fields every step shares, already parsed by workflow.parser.ts. */
type Base = Omit<ParallelStep, 'type' | 'branches' | 'strategy' | 'maxConcurrent' | 'fanOut'>;

const STRATEGIES: ParallelStrategy[] = ['all_succeed', 'any_succeed', 'best_effort'];

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
  return {
    ...base,
    type: 'parallel',
    branches,
    strategy: strategy as ParallelStrategy,
    maxConcurrent: maxConcurrent(raw, at, 'branches', issues),
    ...fanOut(raw, at, issues),
  };
}

/** `max_concurrent`: an integer ≥ 0, 0 (the default) for all at once. */
function maxConcurrent(raw: Raw, at: string, what: string, issues: ValidationIssue[]): number {
  const max = raw.max_concurrent === undefined ? 0 : Number(raw.max_concurrent);
  if (Number.isInteger(max) && max >= 0) return max;
  issues.push(
    issue(
      ErrorCodes.WORKFLOW_INVALID_FIELD,
      `${at}.max_concurrent`,
      `max_concurrent must be an integer ≥ 0 (0: all ${what} at once)`,
    ),
  );
  return 0;
}

/** `fan_out`: true or false; absent is false (ADR 290). */
function fanOut(raw: Raw, at: string, issues: ValidationIssue[]): { fanOut?: true } {
  if (raw.fan_out === undefined || raw.fan_out === false) return {};
  if (raw.fan_out === true) return { fanOut: true };
  issues.push(issue(ErrorCodes.WORKFLOW_INVALID_FIELD, `${at}.fan_out`, 'fan_out must be true or false'));
  return {};
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
    parseFanOutLoop(step, raw, at, issues);
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

/**
 * A fanned-out for_each runs its items at once, each on its own: `max_concurrent` bounds them,
 * and `break_when` (which reads one iteration after another) cannot apply. Without `fan_out`,
 * `max_concurrent` would be a key that does nothing: refused, as the iterations run one by one.
 */
function parseFanOutLoop(step: LoopStep, raw: Raw, at: string, issues: ValidationIssue[]): void {
  Object.assign(step, fanOut(raw, at, issues));
  if (!step.fanOut) {
    if (raw.max_concurrent !== undefined)
      issues.push(
        issue(
          ErrorCodes.WORKFLOW_INVALID_FIELD,
          `${at}.max_concurrent`,
          'max_concurrent on a for_each needs fan_out: true (without it the items run one after another)',
        ),
      );
    return;
  }
  step.maxConcurrent = maxConcurrent(raw, at, 'items', issues);
  if (step.breakWhen)
    issues.push(
      issue(
        ErrorCodes.WORKFLOW_INVALID_FIELD,
        `${at}.break_when`,
        'break_when cannot combine with fan_out: true (the items run at once, not one after another)',
      ),
    );
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
        `operation must be <plugin>.<operation>, not "${operation}"; the step fails when it runs (AWF checks this only then)`,
        'warning',
      ),
    );
  if (raw.inputs !== undefined && raw.inputs !== null && !isMap(raw.inputs))
    issues.push(issue(ErrorCodes.WORKFLOW_INVALID_FIELD, `${at}.inputs`, 'inputs must be a mapping'));
  return { ...base, type: 'operation', operation: operation ?? '', inputs: isMap(raw.inputs) ? raw.inputs : {} };
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
