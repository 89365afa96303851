import { randomUUID } from 'node:crypto';
import { dirname } from 'node:path';
import { AwfError, isAwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { StepStateData } from '../../../domain/workflow/interpolation.types';
import {
  type CallWorkflowStep,
  DEFAULT_CALL_TIMEOUT_MS,
  MAX_CALL_DEPTH,
  type Workflow,
} from '../../../domain/workflow/workflow.model';
import type { CalledWorkflows } from './called-workflows';
import { interpolate, type RunContext } from '../run/run-context';
import { failedOutcome, type StepOutcome } from './step-outcome';
import type { StepRunner } from './step-runner';

/**
 * `type: call_workflow` (AWF's subworkflow executor): the child is loaded and validated, its
 * inputs rendered in the caller's context, and it runs as a whole workflow (hooks included)
 * under this step's span and deadline (`timeout`, default 300 s). A call deeper than 10, or
 * into a workflow already on the call stack, stops the run before the child starts, past the
 * on_failure of this step and of every caller (as AWF does; validate only warns of the cycle).
 * The child's mapped outputs are `.states.<step>.Response.<name>`, its final output is
 * `.Output` (AWF keeps neither: it maps outputs into a value it drops).
 */
export class CallWorkflowStepExecutor {
  constructor(private readonly called: CalledWorkflows) {}

  async execute(step: CallWorkflowStep, ctx: RunContext, runner: StepRunner): Promise<StepOutcome> {
    if (ctx.callStack.length > MAX_CALL_DEPTH) {
      throw new AwfError(
        ErrorCodes.EXECUTION_CALL_DEPTH,
        `states.${step.name}: calling "${step.workflow}" would nest sub-workflows deeper than ${MAX_CALL_DEPTH} (${ctx.callStack.join(' → ')})`,
        { step: step.name, call_stack: ctx.callStack },
        'Flatten the chain of call_workflow steps.',
      );
    }
    const given = Object.fromEntries(
      Object.entries(step.inputs).map(([k, v]) => [k, interpolate(ctx, v, step.name, `inputs.${k}`)]),
    );
    let prepared;
    try {
      prepared = await this.called.prepare(step.workflow, ctx.workflow, given);
    } catch (err) {
      if (!isAwfError(err) || err.code === ErrorCodes.WORKFLOW_NOT_FOUND) throw err;
      return failedOutcome(callFailed(step, err.message, err.details));
    }
    const child = prepared.workflow;
    if (ctx.callStack.includes(child.id)) {
      const cycle = [...ctx.callStack, child.id];
      throw new AwfError(
        ErrorCodes.EXECUTION_CALL_CIRCULAR,
        `states.${step.name}: "${child.id}" is already running (${cycle.join(' → ')}); a workflow cannot call itself, so the run stops here`,
        { step: step.name, cycle },
        'Break the cycle (`awf validate` names it); repeat work with a while or for_each loop instead.',
      );
    }
    if (prepared.ignored.length)
      ctx.observer?.warn?.(
        `states.${step.name}.inputs: "${child.id}" declares no input ${prepared.ignored.join(', ')}; ignored`,
      );
    const timeoutMs = step.timeoutMs || DEFAULT_CALL_TIMEOUT_MS;
    const deadline = AbortSignal.timeout(timeoutMs);
    // The child's own run id, so its transcript is a file of its own, linked to this run's.
    const runId = randomUUID();
    const observer = ctx.observer?.calledWorkflow?.(step.name, runId, child.name, ctx.loop) ?? ctx.observer;
    const { report, states } = await runner.execute(child, {
      runId,
      inputs: prepared.inputs,
      env: ctx.env,
      signal: AbortSignal.any([ctx.signal, deadline]),
      cwd: ctx.cwd,
      runsDir: dirname(ctx.runDir),
      observer,
      callStack: ctx.callStack,
      parentSpan: ctx.stepSpan ?? ctx.parentSpan,
    });
    const state: StepStateData = {
      Output: report.output,
      Stderr: '',
      ExitCode: report.status === 'success' ? 0 : report.status === 'cancelled' ? -1 : 1,
      Status: report.status,
      Response: mapOutputs(step, child, states, ctx),
    };
    const base = { state, attempts: 1, tool_calls: report.steps.reduce((n, s) => n + s.tool_calls, 0) };
    if (ctx.signal.aborted) return { ...base, status: 'cancelled' };
    if (deadline.aborted) {
      const error = new AwfError(
        ErrorCodes.EXECUTION_STEP_TIMEOUT,
        `step "${step.name}": sub-workflow "${child.id}" timed out after ${timeoutMs} ms`,
        { step: step.name, timeout_ms: timeoutMs },
      );
      return { ...base, status: 'failure', state: { ...state, Status: 'failure', ExitCode: -1 }, error };
    }
    if (report.status === 'success') return { ...base, status: 'success' };
    // A cycle or a too-deep chain further down stops every caller up the chain, past on_failure (as AWF).
    if (report.error && STRUCTURAL.has(report.error.code))
      throw new AwfError(
        report.error.code as AwfError['code'],
        report.error.message,
        { step: step.name },
        report.error.hint,
      );
    return {
      ...base,
      status: 'failure',
      error: callFailed(step, report.error?.message ?? `ended in ${report.terminal ?? 'failure'}`, {
        child_run_id: report.run_id,
      }),
    };
  }
}

const STRUCTURAL: ReadonlySet<string> = new Set([ErrorCodes.EXECUTION_CALL_CIRCULAR, ErrorCodes.EXECUTION_CALL_DEPTH]);

/** `outputs: {childKey: parentName}`: a declared output of the child (its `from` path), else a child state's Output. */
function mapOutputs(
  step: CallWorkflowStep,
  child: Workflow,
  states: Record<string, StepStateData>,
  ctx: RunContext,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [childKey, parentName] of Object.entries(step.outputs)) {
    const declared = child.outputs.find((o) => o.name === childKey);
    const value = declared ? lookup(declared.from, states) : states[childKey]?.Output;
    if (value === undefined)
      ctx.observer?.warn?.(`states.${step.name}.outputs.${childKey}: "${child.id}" produced no such output`);
    else out[parentName] = value;
  }
  return out;
}

/** `states.process.Output` or `.states.process.Response.x`, read from the child's states. */
function lookup(path: string, states: Record<string, StepStateData>): unknown {
  const parts = path
    .replace(/^\{\{\s*|\s*\}\}$/g, '')
    .replace(/^\./, '')
    .split('.');
  if (parts[0] !== 'states') return undefined;
  return parts
    .slice(1)
    .reduce<unknown>(
      (v, k) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined),
      states,
    );
}

function callFailed(step: CallWorkflowStep, why: string, details: Record<string, unknown> = {}): AwfError {
  return new AwfError(
    ErrorCodes.EXECUTION_CALL_FAILED,
    `step "${step.name}": sub-workflow "${step.workflow}" failed: ${why}`,
    { step: step.name, workflow: step.workflow, ...details },
  );
}
