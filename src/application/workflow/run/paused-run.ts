import type { StepStateData } from '../../../domain/workflow/interpolation.types';
import type { GateDecision, StepGate } from '../../../domain/workflow/ports/step-gate.port';
import type { ExecutableStep } from '../../../domain/workflow/workflow.model';
import type { RunContext } from './run-context';
import { stepText, stepTransitions } from './step-plan';

/**
 * One run's side of `awf run --interactive`: counts the steps, builds what the gate shows
 * before each one (the command interpolated with the states so far), remembers the last
 * step that ran (for `retry`), and lets `edit` change the run's inputs.
 */
export class PausedRun {
  private index = 0;
  private readonly total: number;
  previous?: string;

  constructor(
    private readonly gate: StepGate,
    private readonly ctx: RunContext,
  ) {
    this.total = ctx.workflow.steps.filter((s) => s.type !== 'terminal').length;
  }

  async ask(step: ExecutableStep): Promise<GateDecision> {
    this.index++;
    if (!this.gate.pausesAt(step.name)) return 'continue';
    const ctx = { ...this.ctx, current: step.name };
    const decision = await this.gate.before({
      name: step.name,
      type: step.type,
      index: this.index,
      total: this.total,
      command: stepText(step, ctx),
      transitions: stepTransitions(step),
      inputs: this.ctx.inputs,
      states: this.ctx.states,
      previous: this.previous,
      setInput: (name, value) => {
        this.ctx.inputs = { ...this.ctx.inputs, [name]: value };
      },
    });
    if (this.ctx.signal.aborted) return 'abort';
    if (decision === 'retry' && !this.previous) return 'continue';
    if (decision === 'retry') this.index -= 2;
    return decision;
  }

  ran(step: string, state: StepStateData, next: string | undefined): void {
    this.previous = step;
    this.gate.after?.(step, state, next);
  }
}

/** Where `skip` goes: on_success, else the step's unconditional transition. */
export function skipTarget(step: ExecutableStep): string | undefined {
  return step.onSuccess ?? step.transitions.find((t) => t.when === undefined)?.goto;
}
