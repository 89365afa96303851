import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { RunDetail } from '../../../domain/ports/run-index.port';
import type { StepStateData } from '../../../domain/workflow/interpolation.types';
import { findStep, type Workflow } from '../../../domain/workflow/workflow.model';

export interface ResumePlan {
  startAt: string;
  states: Record<string, StepStateData>;
  /** The next step record's number: a resumed run adds to its steps, never rewrites them. */
  seq: number;
}

/**
 * Where `awf resume` starts and what it starts with: at `--from`, else at the last failed
 * step, else at the step that was running when the run stopped (a kill, a Ctrl-C); with
 * the states of every step that succeeded, so that none of them runs again.
 */
export function planResume(
  run: Pick<RunDetail, 'run_id' | 'status' | 'step_records' | 'current_step'>,
  workflow: Workflow,
  from?: string,
): ResumePlan {
  if (run.status === 'success') {
    throw new AwfError(
      ErrorCodes.RUN_NOT_RESUMABLE,
      `run ${run.run_id} already succeeded`,
      { run_id: run.run_id, status: run.status },
      'Start it again with `awf run`; `awf resume-list` shows the runs that can be resumed.',
    );
  }
  if (run.status === 'running') {
    throw new AwfError(
      ErrorCodes.RUN_NOT_RESUMABLE,
      `run ${run.run_id} is still running`,
      { run_id: run.run_id, status: run.status },
      'Wait for it to end, or stop it first (Ctrl-C in its terminal).',
    );
  }
  const states: Record<string, StepStateData> = {};
  for (const step of run.step_records) if (step.status === 'success') states[step.name] = step.state;
  const failed = [...run.step_records].reverse().find((s) => s.status !== 'success');
  const startAt = from ?? failed?.name ?? run.current_step ?? workflow.initial;
  const step = findStep(workflow, startAt);
  if (!step || step.type === 'terminal') {
    const names = workflow.steps.filter((s) => s.type !== 'terminal').map((s) => s.name);
    throw new AwfError(
      ErrorCodes.CLI_INVALID_ARGS,
      `--from "${startAt}" is not a step of ${workflow.name}`,
      { from: startAt, steps: names },
      `Pick one of: ${names.join(', ')}.`,
    );
  }
  const seq = run.step_records.reduce((max, s) => Math.max(max, s.seq + 1), 0);
  return { startAt, states, seq };
}
