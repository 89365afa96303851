import { randomUUID } from 'node:crypto';
import { AwfError, isAwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { RunReport, StepResult } from '../../../domain/workflow/run-report.model';
import { type ExecutableStep, findStep, type Workflow } from '../../../domain/workflow/workflow.model';
import type { WorkflowFiles } from '../../../domain/workflow/ports/workflow-files.port';
import type { BranchResult, BranchTask } from '../../../domain/workflow/ports/branch-runner.port';
import { changedStates } from '../steps/fan-out';
import type { RunTelemetry } from '../../run-telemetry.service';
import type { AgentStepExecutor } from '../steps/agent-step.executor';
import type { CallWorkflowStepExecutor } from '../steps/call-workflow-step.executor';
import type { CommandStepExecutor } from '../steps/command-step.executor';
import type { OperationStepExecutor } from '../steps/operation-step.executor';
import type { HookRunner } from '../steps/hook-runner';
import { LoopStepExecutor } from '../steps/loop-step.executor';
import { ParallelStepExecutor } from '../steps/parallel-step.executor';
import type { RunContext } from './run-context';
import { startContext } from './run-start';
import { errorData, errorJson, runReport, singleStepReport, stepResult, terminalReport } from './run-report';
import { failedOutcome, type StepOutcome } from '../steps/step-outcome';
import { route } from '../steps/step-routing';
import { PausedRun, skipTarget } from './paused-run';
import type { RunOptions, StepRunner, WorkflowResult } from '../steps/step-runner';

export type { RunOptions } from '../steps/step-runner';

function noRoute(step: string): AwfError {
  return new AwfError(ErrorCodes.WORKFLOW_NO_ROUTE, `step "${step}" succeeded but names no next state`, { step });
}

export interface StepExecutors {
  commands: CommandStepExecutor;
  agents: AgentStepExecutor;
  hooks: HookRunner;
  calls?: CallWorkflowStepExecutor;
  operations?: OperationStepExecutor;
}

/** A runaway loop of transitions stops here rather than spinning forever. */
const MAX_STEP_EXECUTIONS = 10_000;
/** How long workflow_cancel hooks may take once the run was stopped. */
const CANCEL_HOOK_MS = 30_000;

/**
 * The execution loop of AWF (reference §1.6): workflow_start hooks, then from `initial` each
 * state in turn, routed by transitions / on_success / on_failure / continue_on_error, until a
 * terminal; then workflow_end, _error or _cancel hooks. It never throws for a step's failure:
 * the report says how the run ended. Composite steps (parallel, loops) run their inner states
 * through `runStep`, so every state gets the same hooks, report line and span.
 */
export class WorkflowRunner implements StepRunner {
  private readonly parallel = new ParallelStepExecutor();
  private readonly loops = new LoopStepExecutor();

  constructor(
    private readonly steps: StepExecutors,
    private readonly telemetry?: RunTelemetry,
    private readonly files?: WorkflowFiles,
  ) {}

  async run(workflow: Workflow, options: RunOptions): Promise<RunReport> {
    return (await this.execute(workflow, options)).report;
  }

  async execute(workflow: Workflow, options: RunOptions): Promise<WorkflowResult> {
    const runId = options.runId ?? randomUUID();
    const child = (options.callStack?.length ?? 0) > 0;
    const ctx = startContext(workflow, runId, options, this.files);
    // A child run's steps hang under the parent's call_workflow span; only a top run has its own.
    const runSpan = child ? undefined : this.telemetry?.startRun(workflow.name, runId);
    ctx.parentSpan = child ? options.parentSpan : runSpan;
    // A single step (`-s`) is not kept in the history: there is no id to give out.
    if (!child && !options.only) options.observer?.runStarted?.(runId, workflow.name);
    // A single step (`-s`) runs without the workflow's hooks, as AWF's does.
    const hooks = options.only ? undefined : workflow.hooks.workflow_start;
    const startError = await this.steps.hooks.run(hooks, ctx, 'hooks.workflow_start', true);
    const report = startError
      ? runReport(ctx, options.signal.aborted ? 'cancelled' : 'failure', { error: errorJson(startError) })
      : await this.loop(ctx, options);
    if (!startError && !options.only) await this.endHooks(ctx, report);
    if (runSpan) this.telemetry?.finishRun(runSpan, report, ctx.runDir, ctx.startedAt);
    return { report, states: ctx.states };
  }

  /**
   * One task of a fanned-out step, run here for a child job (ADR 290): a parallel branch or a
   * for_each item, on the states the parent run had, with no workflow hooks and no fan-out of
   * its own. What it set (states, step reports) goes back to the parent run. Never rejects.
   */
  async runTask(workflow: Workflow, options: RunOptions, stepName: string, task: BranchTask): Promise<BranchResult> {
    const ctx = startContext(workflow, options.runId ?? randomUUID(), { ...options, branches: undefined }, this.files);
    const step = findStep(workflow, stepName);
    const seed = { ...ctx.states };
    let result: BranchResult;
    if (task.kind === 'branch' && step?.type === 'parallel')
      result = await this.parallel.runBranch(task.branch, ctx, this);
    else if (task.kind === 'item' && step?.type === 'for_each')
      result = await this.loops.runItem(step, task.loop, ctx, this);
    else {
      const error = new AwfError(
        ErrorCodes.WORKFLOW_MISSING_STATE,
        `no fanned-out step "${stepName}" in ${workflow.name}`,
      );
      const state = failedOutcome(error).state;
      result = { status: 'failure', state, error: errorJson(error), states: {}, reports: [], tool_calls: 0 };
    }
    return { ...result, states: { ...changedStates(seed, ctx.states), ...result.states }, reports: ctx.reports };
  }

  /** Runs one state in `parent`'s scope: pre hooks, the step, its state, post hooks, report, span. */
  async runStep(step: ExecutableStep, parent: RunContext): Promise<StepOutcome> {
    const ctx: RunContext = { ...parent, current: step.name };
    parent.observer?.stepStarted(step.name, step.type, parent.loop);
    const provider = step.type === 'agent' ? step.provider : undefined;
    ctx.stepSpan =
      parent.parentSpan && this.telemetry?.startStep(parent.parentSpan, { name: step.name, type: step.type, provider });
    const started = Date.now();
    await this.steps.hooks.run(step.hooks?.pre, ctx, `states.${step.name}.hooks.pre`, false);
    let outcome: StepOutcome;
    try {
      outcome = await this.dispatch(step, ctx);
    } catch (err) {
      outcome = failedOutcome(isAwfError(err) ? err : new AwfError(ErrorCodes.SYSTEM_INTERNAL, String(err)), {
        fatal: true,
      });
    }
    ctx.states[step.name] = outcome.state;
    if (!ctx.signal.aborted) await this.steps.hooks.run(step.hooks?.post, ctx, `states.${step.name}.hooks.post`, false);
    const report = stepResult(step, outcome, started);
    this.traced(ctx, report, outcome.events);
    ctx.reports.push(report);
    parent.observer?.stepFinished(report, parent.loop);
    return outcome;
  }

  private dispatch(step: ExecutableStep, ctx: RunContext): Promise<StepOutcome> {
    switch (step.type) {
      case 'step':
        return this.steps.commands.execute(step, ctx, ctx.observer);
      case 'agent':
        return this.steps.agents.execute(step, ctx);
      case 'parallel':
        return this.parallel.execute(step, ctx, this);
      case 'for_each':
      case 'while':
        return this.loops.execute(step, ctx, this);
      case 'call_workflow':
        if (this.steps.calls) return this.steps.calls.execute(step, ctx, this);
        break;
      case 'operation':
        if (this.steps.operations) return this.steps.operations.execute(step, ctx);
        break;
    }
    throw new AwfError(
      ErrorCodes.WORKFLOW_INVALID_FIELD,
      `states.${step.name}.type: step type "${step.type}" cannot run here`,
      { step: step.name },
    );
  }

  private async loop(ctx: RunContext, options: Pick<RunOptions, 'only' | 'gate'>): Promise<RunReport> {
    const gate = ctx.callStack.length === 1 ? options.gate : undefined;
    const paused = gate && new PausedRun(gate, ctx);
    for (let executed = 0; executed < MAX_STEP_EXECUTIONS; executed++) {
      if (ctx.signal.aborted) return runReport(ctx, 'cancelled');
      const step = findStep(ctx.workflow, ctx.current);
      if (!step) {
        return runReport(ctx, 'failure', {
          error: errorJson(
            new AwfError(ErrorCodes.WORKFLOW_MISSING_STATE, `state "${ctx.current}" does not exist`, {
              state: ctx.current,
            }),
          ),
        });
      }
      if (step.type === 'terminal') return terminalReport(step, ctx);
      const decision = paused ? await paused.ask(step) : 'continue';
      if (decision === 'abort') return runReport(ctx, 'cancelled');
      if (decision !== 'continue') {
        const next = decision === 'skip' ? skipTarget(step) : paused!.previous;
        if (!next) return runReport(ctx, 'failure', { error: errorJson(noRoute(step.name)) });
        ctx.current = next;
        continue;
      }
      const outcome = await this.runStep(step, ctx);
      if (options.only) return singleStepReport(ctx, outcome);
      if (outcome.status === 'cancelled' || ctx.signal.aborted) return runReport(ctx, 'cancelled');
      const next = outcome.fatal ? undefined : route(step, outcome, ctx);
      // The run history keeps the top run's states, so that `awf resume` can seed them.
      if (ctx.callStack.length === 1)
        await ctx.observer?.stepRecorded?.({ ...ctx.reports.at(-1)!, ...(next ? { next } : {}) });
      paused?.ran(step.name, outcome.state, next);
      if (!next) return runReport(ctx, 'failure', { error: errorJson(outcome.error ?? noRoute(step.name)) });
      ctx.current = next;
    }
    return runReport(ctx, 'failure', {
      error: {
        code: ErrorCodes.EXECUTION_STEP_FAILED,
        message: `stopped after ${MAX_STEP_EXECUTIONS} steps: the transitions loop forever`,
      },
    });
  }

  /** workflow_end, _error or _cancel (AWF's order); they run even after Ctrl-C, and never change the outcome. */
  private async endHooks(ctx: RunContext, report: RunReport): Promise<void> {
    const hooks = ctx.workflow.hooks;
    const name =
      report.status === 'success'
        ? 'workflow_end'
        : report.status === 'cancelled'
          ? 'workflow_cancel'
          : 'workflow_error';
    if (!hooks[name]?.length) return;
    const signal = name === 'workflow_cancel' ? AbortSignal.timeout(CANCEL_HOOK_MS) : new AbortController().signal;
    const error =
      name === 'workflow_error' && report.error
        ? errorData(report.error, ctx.current, ctx.states[ctx.current])
        : undefined;
    await this.steps.hooks.run(hooks[name], { ...ctx, signal, error }, `hooks.${name}`, false);
  }

  /** Ends the step's span and adds its tool calls (agent steps) to the report. */
  private traced(ctx: RunContext, report: StepResult, events: StepOutcome['events']): void {
    const span = ctx.stepSpan;
    if (!span || !this.telemetry) return;
    const calls = this.telemetry.finishStep(span, report, events, ctx.workflow.name);
    if (calls && calls.events.length > 0) Object.assign(report, calls);
  }
}
