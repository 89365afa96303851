import type { AwfError } from '../../../domain/errors/awf-error';
import { categoryOf, ErrorCodes } from '../../../domain/errors/error-codes';
import type { ErrorData, StepStateData } from '../../../domain/workflow/interpolation.types';
import type { RunError, RunReport, StepResult } from '../../../domain/workflow/run-report.model';
import type { ExecutableStep, TerminalStep } from '../../../domain/workflow/workflow.model';
import { interpolate, type RunContext } from './run-context';
import type { StepOutcome } from '../steps/step-outcome';

export function stepResult(step: ExecutableStep, o: StepOutcome, started: number): StepResult {
  return {
    name: step.name,
    type: step.type,
    status: o.status,
    started_at: new Date(started).toISOString(),
    duration_ms: Date.now() - started,
    exit_code: o.state.ExitCode,
    output: o.state.Output,
    state: o.state,
    tool_calls: o.tool_calls,
    ...(o.attempts > 1 ? { attempts: o.attempts } : {}),
    ...(o.error ? { error: errorJson(o.error) } : {}),
  };
}

export function errorJson(err: AwfError): RunError {
  return { code: err.code, message: err.message, ...(err.hint ? { hint: err.hint } : {}) };
}

/** `.error` for workflow_error hooks; Type is the code's category, lowercased (AWF's four). */
export function errorData(error: RunError, state: string, stepState?: StepStateData): ErrorData {
  const exit = stepState && stepState.ExitCode > 0 ? stepState.ExitCode : 1;
  return {
    Message: error.message,
    State: state,
    ExitCode: exit,
    Type: categoryOf(error.code).toLowerCase() as ErrorData['Type'],
  };
}

/** `-s`: the run is the one step; its failure is the run's. */
export function singleStepReport(ctx: RunContext, outcome: StepOutcome): RunReport {
  if (outcome.status === 'success') return runReport(ctx, 'success');
  return runReport(ctx, outcome.status, outcome.error ? { error: errorJson(outcome.error) } : {});
}

/** A terminal state's report: its message rendered, a failure state's as the run's error. */
export function terminalReport(step: TerminalStep, ctx: RunContext): RunReport {
  let message = step.message;
  if (message) {
    try {
      message = interpolate(ctx, message, step.name, 'message');
    } catch {
      // AWF keeps the raw text when the message cannot be rendered.
    }
  }
  if (step.status === 'success')
    return runReport(ctx, 'success', { terminal: step.name, ...(message ? { output: message } : {}) });
  const text = message ?? `workflow reached terminal failure state: ${step.name}`;
  return runReport(ctx, 'failure', {
    terminal: step.name,
    error: { code: ErrorCodes.EXECUTION_TERMINAL_FAILURE, message: text },
  });
}

/** The run's report as it stands: its steps so far, the last one's output. */
export function runReport(ctx: RunContext, status: RunReport['status'], extra: Partial<RunReport> = {}): RunReport {
  const steps = ctx.reports;
  return {
    workflow: ctx.workflow.name,
    run_id: ctx.runId,
    status,
    duration_ms: Date.now() - ctx.startedAt.getTime(),
    output: steps.at(-1)?.output ?? '',
    steps,
    ...extra,
  };
}
