import type { AwfError } from '../../../domain/errors/awf-error';
import type { ToolCallEvent } from '../../../domain/model/tool-call-event';
import type { StepResult } from '../../../domain/workflow/run-report.model';

/**
 * What executing one step produced, before routing decides where to go next: the part of its
 * StepResult an executor knows (the runner adds name, type and timing), with the error still an
 * AwfError (its hint and details go to the hooks and the report).
 */
export interface StepOutcome extends Pick<StepResult, 'status' | 'state' | 'tool_calls' | 'next'> {
  error?: AwfError;
  attempts: number;
  /** The audit events of an agent step's proxied tool calls, read once when the step ended. */
  events?: readonly ToolCallEvent[];
  /** The step could not run at all (a template error, an unknown provider): no route applies. */
  fatal?: boolean;
}

export function failedOutcome(error: AwfError, extra: Partial<StepOutcome> = {}): StepOutcome {
  return {
    status: 'failure',
    state: { Output: '', Stderr: '', ExitCode: -1, Status: 'failure' },
    error,
    attempts: 1,
    tool_calls: 0,
    ...extra,
  };
}
