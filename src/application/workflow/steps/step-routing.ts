import type { ExecutableStep } from '../../../domain/workflow/workflow.model';
import { Condition } from '../template/condition-evaluator';
import type { RunContext } from '../run/run-context';
import type { StepOutcome } from './step-outcome';

/** What `when`, `while` and `break_when` expressions see (AWF's expression environment). */
export function conditionEnv(ctx: RunContext, current: string): Record<string, unknown> {
  return {
    inputs: ctx.inputs,
    states: ctx.states,
    env: ctx.env,
    workflow: { ID: ctx.runId, Name: ctx.workflow.name, CurrentState: current },
    ...(ctx.loop ? { loop: ctx.loop } : {}),
    ...(ctx.error ? { error: ctx.error } : {}),
  };
}

/**
 * Where to go after a step. Command steps evaluate transitions on both paths; the others only
 * on success (AWF). A loop goes to where a body step left it, else on_complete. Then
 * continue_on_error → on_success, else on_failure.
 */
export function route(step: ExecutableStep, outcome: StepOutcome, ctx: RunContext): string | undefined {
  const ok = outcome.status === 'success';
  if (outcome.next !== undefined) return outcome.next;
  if (ok || step.type === 'step') {
    const env = conditionEnv(ctx, step.name);
    for (const t of step.transitions) {
      if (t.when === undefined || Condition.compile(t.when).evaluate(env)) return t.goto;
    }
  }
  if (ok && (step.type === 'for_each' || step.type === 'while'))
    return outcome.next ?? step.onComplete ?? step.onSuccess;
  if (ok || step.continueOnError) return step.onSuccess;
  return step.onFailure;
}
