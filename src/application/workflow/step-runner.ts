import type { ExecutableStep } from '../../domain/workflow/workflow.model';
import type { RunContext } from './run-context';
import type { StepOutcome } from './step-outcome';

/**
 * How a composite step (parallel, for_each, while) runs the states inside it: as the main
 * loop runs a state, with hooks, a report line, a span under `ctx.parentSpan` and the state
 * recorded in `ctx.states`. Routing stays with the caller. Never rejects.
 */
export interface StepRunner {
  runStep(step: ExecutableStep, ctx: RunContext): Promise<StepOutcome>;
}
