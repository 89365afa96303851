import type { Step, Workflow } from '../../../domain/workflow/workflow.model';
import { awfDirsOf } from './awf-dirs';
import type { RunContext } from './run-context';
import { reachableSteps, renderOrRaw, stepText, stepTransitions } from './step-plan';

/** One state of `awf run --dry-run`'s plan. */
export interface DryRunStep {
  name: string;
  type: Step['type'];
  description?: string;
  /** A command step's command, or an agent step's prompt, interpolated. */
  command?: string;
  provider?: string;
  dir?: string;
  timeout_ms?: number;
  retry_attempts?: number;
  /** Agent steps: whether the step's tools go through awf's MCP proxy. */
  mcp_proxy?: boolean;
  operation?: string;
  workflow?: string;
  branches?: string[];
  body?: string[];
  items?: string;
  condition?: string;
  status?: 'success' | 'failure';
  message?: string;
  continue_on_error?: boolean;
  transitions: string[];
}

/** What `awf run --dry-run` prints: nothing in it has run, and no proxy was started. */
export interface DryRunPlan {
  workflow: string;
  description?: string;
  inputs: { name: string; value: string; default: boolean }[];
  steps: DryRunStep[];
}

/** The plan of a run with these inputs, in AWF's breadth-first order from `initial`. */
export function dryRunPlan(
  workflow: Workflow,
  inputs: Record<string, string>,
  given: Record<string, string>,
): DryRunPlan {
  const ctx: RunContext = {
    workflow,
    runId: 'dry-run',
    runDir: '',
    inputs,
    env: {},
    states: {},
    startedAt: new Date(),
    current: workflow.initial,
    signal: new AbortController().signal,
    cwd: workflow.sourceDir ?? '',
    callStack: [workflow.id],
    reports: [],
    awf: awfDirsOf(workflow, {}),
  };
  return {
    workflow: workflow.name,
    ...(workflow.description ? { description: workflow.description } : {}),
    inputs: Object.entries(inputs)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, value]) => ({ name, value, default: !(name in given) })),
    steps: reachableSteps(workflow).map((step) => planStep(step, { ...ctx, current: step.name })),
  };
}

function planStep(step: Step, ctx: RunContext): DryRunStep {
  const out: DryRunStep = { name: step.name, type: step.type, transitions: stepTransitions(step) };
  if (step.description) out.description = step.description;
  const text = stepText(step, ctx);
  if (text !== undefined) out.command = text;
  if (step.type !== 'terminal' && step.timeoutMs > 0) out.timeout_ms = step.timeoutMs;
  if (step.type !== 'terminal' && step.continueOnError) out.continue_on_error = true;
  switch (step.type) {
    case 'step':
      if (step.dir) out.dir = renderOrRaw(ctx, step.dir, step.name, 'dir');
      if (step.retry) out.retry_attempts = step.retry.maxAttempts;
      break;
    case 'agent':
      out.provider = step.provider;
      out.mcp_proxy = step.mcpProxy?.enable === true;
      break;
    case 'terminal':
      out.status = step.status;
      if (step.message) out.message = renderOrRaw(ctx, step.message, step.name, 'message');
      break;
    case 'parallel':
      out.branches = step.branches;
      break;
    case 'for_each':
    case 'while':
      out.body = step.body;
      if (step.items) out.items = renderOrRaw(ctx, step.items, step.name, 'items');
      if (step.condition) out.condition = step.condition;
      break;
    case 'operation':
      out.operation = step.operation;
      break;
    case 'call_workflow':
      out.workflow = step.workflow;
      break;
  }
  return out;
}
