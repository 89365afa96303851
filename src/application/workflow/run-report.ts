import type { AwfError } from '../../domain/errors/awf-error';
import { categoryOf } from '../../domain/errors/error-codes';
import type { ErrorData, StepStateData } from '../../domain/workflow/interpolation.types';
import type { RunError, StepReport } from '../../domain/workflow/run-report.model';
import type { ExecutableStep } from '../../domain/workflow/workflow.model';
import type { StepOutcome } from './step-outcome';

export function stepReport(step: ExecutableStep, o: StepOutcome, started: number): StepReport {
  return {
    name: step.name,
    type: step.type,
    status: o.status,
    duration_ms: Date.now() - started,
    exit_code: o.state.ExitCode,
    output: o.state.Output,
    tool_calls: o.toolCalls,
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
