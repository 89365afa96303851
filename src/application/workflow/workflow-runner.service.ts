import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { AwfError, isAwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { RunObserver } from '../../domain/workflow/ports/run-observer.port';
import type { RunError, RunReport, StepReport } from '../../domain/workflow/run-report.model';
import { findStep, type Step, type TerminalStep, type Workflow } from '../../domain/workflow/workflow.model';
import type { RunTelemetry } from '../run-telemetry.service';
import { type AgentStepExecutor, stepEventsPath } from './agent-step.executor';
import type { CommandStepExecutor } from './command-step.executor';
import { Condition } from './condition-evaluator';
import { interpolate, type RunContext } from './run-context';
import type { StepOutcome } from './step-outcome';

export interface RunOptions {
  inputs: Record<string, string>;
  env: Record<string, string>;
  signal: AbortSignal;
  cwd: string;
  /** Parent of the per-run directories (audit events), created only when a step has a proxy. */
  runsDir: string;
  observer?: RunObserver;
  /** Where `mode: conversation` steps read the user's next turns. */
  userInput?: (step: string) => Promise<string | undefined>;
}

/** A runaway loop of transitions stops here rather than spinning forever. */
const MAX_STEP_EXECUTIONS = 10_000;

/**
 * The execution loop of AWF (reference §1.6): start at `initial`, run each state, route by
 * transitions / on_success / on_failure / continue_on_error, stop at a terminal. It never
 * throws for a step's failure: the report says how the run ended. A signal ends the run as
 * `cancelled` once the running step has been stopped.
 */
export class WorkflowRunner {
  constructor(private readonly commands: CommandStepExecutor, private readonly agents: AgentStepExecutor, private readonly telemetry?: RunTelemetry) {}

  async run(workflow: Workflow, options: RunOptions): Promise<RunReport> {
    const runId = randomUUID();
    const runDir = join(options.runsDir, runId);
    const ctx: RunContext = {
      workflow, runId, runDir, inputs: options.inputs, env: options.env, states: {}, startedAt: new Date(),
      current: workflow.initial, signal: options.signal, cwd: options.cwd, userInput: options.userInput,
    };
    const steps: StepReport[] = [];
    const runSpan = this.telemetry?.startRun(workflow.name, runId);
    const finish = (status: RunReport['status'], extra: Partial<RunReport> = {}): RunReport => {
      const report: RunReport = {
        workflow: workflow.name, run_id: runId, status, duration_ms: Date.now() - ctx.startedAt.getTime(),
        output: steps.at(-1)?.output ?? '', steps, ...extra,
      };
      if (runSpan) this.telemetry?.finishRun(runSpan, report, runDir, ctx.startedAt);
      return report;
    };
    for (let executed = 0; executed < MAX_STEP_EXECUTIONS; executed++) {
      if (options.signal.aborted) return finish('cancelled');
      const step = findStep(workflow, ctx.current);
      if (!step) return finish('failure', { error: errorJson(missingState(ctx.current)) });
      if (step.type === 'terminal') return this.terminal(step, ctx, finish);
      options.observer?.stepStarted(step.name, step.type);
      ctx.stepSpan = runSpan && this.telemetry?.startStep(runSpan, { name: step.name, type: step.type, provider: step.type === 'agent' ? step.provider : undefined });
      const started = Date.now();
      let outcome: StepOutcome;
      try {
        outcome = step.type === 'step' ? await this.commands.execute(step, ctx, options.observer) : await this.agents.execute(step, ctx);
      } catch (err) {
        const error = isAwfError(err) ? err : new AwfError(ErrorCodes.SYSTEM_INTERNAL, String(err));
        const report = stepReport(step, { status: 'failure', state: { Output: '', Stderr: '', ExitCode: -1, Status: 'failure' }, attempts: 1, toolCalls: 0, error }, started);
        this.traced(ctx, step, report);
        steps.push(report);
        options.observer?.stepFinished(report);
        return finish('failure', { error: errorJson(error) });
      }
      ctx.states[step.name] = outcome.state;
      const report = stepReport(step, outcome, started);
      this.traced(ctx, step, report);
      steps.push(report);
      options.observer?.stepFinished(report);
      if (outcome.status === 'cancelled' || options.signal.aborted) return finish('cancelled');
      const next = route(step, outcome, ctx);
      if (!next) {
        const error = outcome.error ?? new AwfError(ErrorCodes.WORKFLOW_NO_ROUTE, `step "${step.name}" succeeded but names no next state`, { step: step.name });
        return finish('failure', { error: errorJson(error) });
      }
      ctx.current = next;
    }
    return finish('failure', { error: { code: ErrorCodes.EXECUTION_STEP_FAILED, message: `stopped after ${MAX_STEP_EXECUTIONS} steps: the transitions loop forever` } });
  }

  /** Ends the step's span and adds its tool calls (agent steps) to the report. */
  private traced(ctx: RunContext, step: Exclude<Step, TerminalStep>, report: StepReport): void {
    const span = ctx.stepSpan;
    ctx.stepSpan = undefined;
    if (!span || !this.telemetry) return;
    const calls = this.telemetry.finishStep(span, report, step.type === 'agent' ? stepEventsPath(ctx.runDir, step.name) : undefined);
    if (calls && calls.events.length > 0) Object.assign(report, calls);
  }

  private terminal(step: TerminalStep, ctx: RunContext, finish: (s: RunReport['status'], e?: Partial<RunReport>) => RunReport): RunReport {
    let message = step.message;
    if (message) {
      try {
        message = interpolate(ctx, message, step.name, 'message');
      } catch {
        // AWF keeps the raw text when the message cannot be rendered.
      }
    }
    if (step.status === 'success') return finish('success', { terminal: step.name, ...(message ? { output: message } : {}) });
    const text = message ?? `workflow reached terminal failure state: ${step.name}`;
    return finish('failure', { terminal: step.name, error: { code: ErrorCodes.EXECUTION_TERMINAL_FAILURE, message: text } });
  }
}

/**
 * Where to go after a step. Command steps evaluate transitions on both paths; agents only
 * on success (AWF). Then continue_on_error → on_success, else on_failure.
 */
export function route(step: Exclude<Step, TerminalStep>, outcome: StepOutcome, ctx: RunContext): string | undefined {
  const ok = outcome.status === 'success';
  if (ok || step.type === 'step') {
    const env = { inputs: ctx.inputs, states: ctx.states, env: ctx.env, workflow: { ID: ctx.runId, Name: ctx.workflow.name, CurrentState: step.name } };
    for (const t of step.transitions) {
      if (t.when === undefined || Condition.compile(t.when).evaluate(env)) return t.goto;
    }
  }
  if (ok || step.continueOnError) return step.onSuccess;
  return step.onFailure;
}

function stepReport(step: Step, o: StepOutcome, started: number): StepReport {
  return {
    name: step.name,
    type: step.type === 'agent' ? 'agent' : 'step',
    status: o.status,
    duration_ms: Date.now() - started,
    exit_code: o.state.ExitCode,
    output: o.state.Output,
    tool_calls: o.toolCalls,
    ...(o.attempts > 1 ? { attempts: o.attempts } : {}),
    ...(o.error ? { error: errorJson(o.error) } : {}),
  };
}

function missingState(name: string): AwfError {
  return new AwfError(ErrorCodes.WORKFLOW_MISSING_STATE, `state "${name}" does not exist`, { state: name });
}

function errorJson(err: AwfError): RunError {
  return { code: err.code, message: err.message, ...(err.hint ? { hint: err.hint } : {}) };
}
