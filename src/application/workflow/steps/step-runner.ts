import type { TraceSpan } from '../../../domain/ports/tracer.port';
import type { StepStateData } from '../../../domain/workflow/interpolation.types';
import type { RunObserver } from '../../../domain/workflow/ports/run-observer.port';
import type { BranchRunner } from '../../../domain/workflow/ports/branch-runner.port';
import type { StepGate } from '../../../domain/workflow/ports/step-gate.port';
import type { RunReport } from '../../../domain/workflow/run-report.model';
import type { ExecutableStep, Workflow } from '../../../domain/workflow/workflow.model';
import type { RunContext } from '../run/run-context';
import type { StepOutcome } from './step-outcome';

/**
 * How a composite step (parallel, for_each, while) runs the states inside it: as the main
 * loop runs a state, with hooks, a report line, a span under `ctx.parentSpan` and the state
 * recorded in `ctx.states`. Routing stays with the caller. Never rejects.
 */
export interface StepRunner {
  runStep(step: ExecutableStep, ctx: RunContext): Promise<StepOutcome>;
  /** Runs a whole workflow (call_workflow: a child, with the parent's call stack). Never rejects. */
  execute(workflow: Workflow, options: RunOptions): Promise<WorkflowResult>;
}

export interface RunOptions {
  inputs: Record<string, string>;
  env: Record<string, string>;
  signal: AbortSignal;
  cwd: string;
  /** Parent of the per-run directories (audit events), created only when a step has a proxy. */
  runsDir: string;
  observer?: RunObserver;
  /** Resume seam: the run's id, the first state to run (default `initial`), states already done. */
  runId?: string;
  startAt?: string;
  seedStates?: Record<string, StepStateData>;
  /** Set by call_workflow: the workflows above this one, and the span its steps hang under. */
  callStack?: string[];
  parentSpan?: TraceSpan;
  /** `awf run -s`: run the `startAt` step alone (no workflow hooks, no routing), on the seeded states. */
  only?: boolean;
  /** `awf run --interactive`: asked before each top-level step. */
  gate?: StepGate;
  /** Where `mode: conversation` steps read the user's next turns. */
  userInput?: (step: string) => Promise<string | undefined>;
  /** Where `fan_out: true` steps send their branches and items (ADR 290); absent: this process. */
  branches?: BranchRunner;
}

export interface WorkflowResult {
  report: RunReport;
  states: Record<string, StepStateData>;
}
