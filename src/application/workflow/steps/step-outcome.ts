import type { AwfError } from '../../../domain/errors/awf-error';
import type { ToolCallEvent } from '../../../domain/model/tool-call-event';
import type { StepStateData } from '../../../domain/workflow/interpolation.types';

/** What executing one step produced, before routing decides where to go next. */
export interface StepOutcome {
  status: 'success' | 'failure' | 'cancelled';
  state: StepStateData;
  error?: AwfError;
  attempts: number;
  toolCalls: number;
  /** The audit events of an agent step's proxied tool calls, read once when the step ended. */
  events?: readonly ToolCallEvent[];
  /** Where a loop left early (a body step routed outside the loop): overrides on_complete. */
  next?: string;
  /** The step could not run at all (a template error, an unknown provider): no route applies. */
  fatal?: boolean;
}

export function failedOutcome(error: AwfError, extra: Partial<StepOutcome> = {}): StepOutcome {
  return {
    status: 'failure',
    state: { Output: '', Stderr: '', ExitCode: -1, Status: 'failure' },
    error,
    attempts: 1,
    toolCalls: 0,
    ...extra,
  };
}
