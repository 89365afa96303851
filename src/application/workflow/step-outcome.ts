import type { AwfError } from '../../domain/errors/awf-error';
import type { StepStateData } from '../../domain/workflow/interpolation.types';

/** What executing one step produced, before routing decides where to go next. */
export interface StepOutcome {
  status: 'success' | 'failure' | 'cancelled';
  state: StepStateData;
  error?: AwfError;
  attempts: number;
  toolCalls: number;
}
