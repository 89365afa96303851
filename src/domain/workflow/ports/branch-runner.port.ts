import type { LoopData, StepStateData } from '../interpolation.types';
import type { RunError, StepResult, StepStatus } from '../run-report.model';

/** One piece of a composite step: a `parallel` branch, or one item of a fanned-out `for_each`. */
export type BranchTask = { kind: 'branch'; branch: string } | { kind: 'item'; loop: LoopData };

/** How one task ended, as the parallel or for_each step gathers it (in task order). */
export interface BranchResult {
  status: StepStatus;
  /** A branch's own state; an item's last body step's. */
  state: StepStateData;
  error?: RunError;
  /** The states the task set (the branch, the body steps, what they ran inside), merged in task order. */
  states: Record<string, StepStateData>;
  /** Step reports the task made elsewhere, added to the run's (in this process they are there already). */
  reports: StepResult[];
  tool_calls: number;
  /** An item whose body routed out of the loop: to this state. */
  next?: string;
  /** An item that failed: the body step that failed. */
  failedStep?: string;
}

/** What a composite step hands a BranchRunner. */
export interface BranchBatch {
  /** The parallel or for_each step. */
  step: string;
  tasks: BranchTask[];
  /** At most this many tasks at once; 0: all. */
  width: number;
  /** The run's signal (Ctrl-C, `awf runs cancel`): no new task starts, running ones stop. */
  signal: AbortSignal;
  /** The run's states as the tasks start from them: what a task run elsewhere carries. */
  states: Record<string, StepStateData>;
  /** How one task runs in this process. */
  runHere(task: BranchTask, signal: AbortSignal): Promise<BranchResult>;
  /** Told of each task as it ends, in the order they end; true: start no other, stop those running. */
  stopAfter(result: BranchResult, index: number): boolean;
}

/**
 * Where the branches of a `parallel` and the items of a `for_each` run (ADR 290): in this process
 * (the default, and always without a queue), or as child jobs on any queue worker. Either way at
 * most `width` at a time, stopped as `stopAfter` says, and the results come back by task index
 * (undefined for a task that never started). Never rejects for a task's failure.
 */
export interface BranchRunner {
  /** Where the tasks run, for the step's info line; undefined: in this process. */
  readonly where?: string;
  run(batch: BranchBatch): Promise<(BranchResult | undefined)[]>;
}
