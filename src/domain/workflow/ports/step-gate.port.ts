import type { StepStateData } from '../interpolation.types';

/** A step as it is about to run: what `awf run --interactive` shows before asking. */
export interface StepPreview {
  name: string;
  type: string;
  /** 1-based count of the steps run or skipped so far, and the workflow's executable steps. */
  index: number;
  total: number;
  /** The step's command or prompt, interpolated with what is known now (raw where it cannot be). */
  command?: string;
  /** `on_success → done`, `when "…" → x`: where the step can go. */
  transitions: string[];
  inputs: Readonly<Record<string, string>>;
  states: Readonly<Record<string, StepStateData>>;
  /** The step run before this one: what `retry` runs again. */
  previous?: string;
  /** Changes an input for the rest of the run (`edit`). */
  setInput(name: string, value: string): void;
}

export type GateDecision = 'continue' | 'skip' | 'abort' | 'retry';

/**
 * Pauses a run before its top-level steps (`awf run --interactive`, `-b`). Contract: `before`
 * settles with a decision (an abort of the run's signal may settle it with `abort`); `skip`
 * moves on along `on_success` without running the step; `retry` runs `previous` again.
 */
export interface StepGate {
  /** Whether to pause at this step at all (breakpoints); when false the step just runs. */
  pausesAt(step: string): boolean;
  before(preview: StepPreview): Promise<GateDecision>;
  /** After the step ran: its state and the step the run goes to next (absent: the run ends). */
  after?(step: string, state: StepStateData, next: string | undefined): void;
}
