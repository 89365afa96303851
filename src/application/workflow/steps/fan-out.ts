import type { StepStateData } from '../../../domain/workflow/interpolation.types';
import type { BranchResult, BranchRunner } from '../../../domain/workflow/ports/branch-runner.port';
import type { LoopStep, ParallelStep } from '../../../domain/workflow/workflow.model';
import type { RunContext } from '../run/run-context';
import { IN_PROCESS_BRANCHES } from './in-process-branch-runner';

/**
 * Where a composite step's tasks run: with `fan_out: true` and a run that can fan out (a queue
 * worker's), as child jobs, said in one info line so it is seen; else in this process.
 */
export function branchRunnerFor(step: ParallelStep | LoopStep, ctx: RunContext, count: number): BranchRunner {
  if (!step.fanOut || !ctx.branches?.where) return IN_PROCESS_BRANCHES;
  const what = step.type === 'parallel' ? 'branches' : 'items';
  const width = step.maxConcurrent ? `, at most ${step.maxConcurrent} at once` : '';
  ctx.observer?.info?.(`${step.name}: ${count} ${what} as child jobs on ${ctx.branches.where}${width}`);
  return ctx.branches;
}

/** The tasks' states and reports into the run's, in task order: a later task's state wins, as in a loop. */
export function gather(ctx: RunContext, results: (BranchResult | undefined)[]): void {
  for (const result of results) {
    if (!result) continue;
    Object.assign(ctx.states, result.states);
    ctx.reports.push(...result.reports);
  }
}

/** The states `after` holds that `before` did not (or held another one): what a task set. */
export function changedStates(
  before: Record<string, StepStateData>,
  after: Record<string, StepStateData>,
): Record<string, StepStateData> {
  return Object.fromEntries(Object.entries(after).filter(([name, state]) => before[name] !== state));
}
