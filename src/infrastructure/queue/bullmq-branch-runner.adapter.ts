import { createHash } from 'node:crypto';
import type { Job } from 'bullmq';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { RunJob } from '../../domain/ports/run-queue.port';
import type { BranchBatch, BranchResult, BranchRunner } from '../../domain/workflow/ports/branch-runner.port';
import { KEEP } from './bullmq-run-queue.adapter';
import { signJob } from './job-signature';
import type { AnyQueue } from './queue-backend';
import { CANCEL_PROGRESS } from './run-event-log';

/** Children in flight are checked this often: a finished one makes room for the next. */
const POLL_MS = 100;

/**
 * A run's fan-out on a worker (ADR 290): each task is a child job of the run's own job (a
 * BullMQ flow: `parent` on the child, results read with getChildrenValues) on the branches
 * queue, signed as runs are and carrying the run's files. The run keeps at most `width`
 * children queued or running and adds the next when one ends: `max_concurrent` holds across
 * the fleet with open-source BullMQ alone. A child whose worker dies is taken over by BullMQ's
 * stalled-job check (at-least-once); a child id is the same on every attempt of its run, so a
 * run taken over waits for (or reuses) the children its last worker added.
 */
export class BullmqBranchRunner implements BranchRunner {
  private readonly started = new Map<string, number>();

  constructor(
    private readonly branches: AnyQueue,
    private readonly parent: Job,
    private readonly job: RunJob,
    private readonly secret: string,
    readonly where: string,
  ) {}

  async run(batch: BranchBatch): Promise<(BranchResult | undefined)[]> {
    const results: (BranchResult | undefined)[] = batch.tasks.map(() => undefined);
    const ids = this.childIds(batch);
    const inFlight = new Map<string, { index: number; job: Job }>();
    let next = 0;
    let stopped = false;
    for (;;) {
      if (batch.signal.aborted && !stopped) stopped = await this.stop(inFlight);
      while (!stopped && inFlight.size < (batch.width || batch.tasks.length) && next < batch.tasks.length) {
        const index = next++;
        inFlight.set(ids[index], { index, job: await this.add(batch, index, ids[index]) });
      }
      if (!inFlight.size) return results;
      await new Promise((r) => setTimeout(r, POLL_MS));
      for (const [id, result] of await this.ended(inFlight)) {
        const { index } = inFlight.get(id)!;
        inFlight.delete(id);
        results[index] = result;
        if (batch.stopAfter(result, index) && !stopped) stopped = await this.stop(inFlight);
      }
    }
  }

  /** `<run id>.<step digest>.<how often the step ran in this attempt>.<task>`: the same when the run is taken over. */
  private childIds(batch: BranchBatch): string[] {
    const times = this.started.get(batch.step) ?? 0;
    this.started.set(batch.step, times + 1);
    const step = createHash('sha256').update(batch.step).digest('hex').slice(0, 12);
    return batch.tasks.map((_, i) => `${this.job.run_id}.${step}.${times}.${i}`);
  }

  private add(batch: BranchBatch, index: number, id: string): Promise<Job> {
    const task = batch.tasks[index];
    const child: RunJob = {
      ...this.job,
      run_id: id,
      enqueued_at: new Date().toISOString(),
      fan_out: { parent_run: this.job.run_id, step: batch.step, task, states: batch.states },
    };
    const label = task.kind === 'branch' ? task.branch : `item ${task.loop.Index1}`;
    return this.branches.add(`${batch.step}/${label}`, signJob(child, this.secret), {
      jobId: id,
      parent: { id: this.parent.id!, queue: this.parent.queueQualifiedName },
      // A child that fails as a job (refused, taken over too often) must not hold its run forever.
      ignoreDependencyOnFailure: true,
      removeOnComplete: KEEP,
      removeOnFail: KEEP,
    });
  }

  /** The children in flight that ended: their results as the parent job holds them. */
  private async ended(inFlight: Map<string, { job: Job }>): Promise<[string, BranchResult][]> {
    const values = await this.parent.getChildrenValues<BranchResult>();
    const failures = await this.parent.getIgnoredChildrenFailures();
    const out: [string, BranchResult][] = [];
    for (const id of inFlight.keys()) {
      const key = this.branches.toKey(id);
      if (values[key]) out.push([id, values[key]]);
      else if (failures[key] !== undefined) out.push([id, failedChild(id, failures[key])]);
    }
    return out;
  }

  /** No child is added any more; waiting ones are removed, running ones told to stop (they end as cancelled). */
  private async stop(inFlight: Map<string, { job: Job }>): Promise<true> {
    for (const [id, { job }] of inFlight) {
      const removed =
        (await job.getState()) === 'waiting' &&
        (await job.remove().then(
          () => true,
          () => false,
        ));
      if (removed) {
        inFlight.delete(id);
        continue;
      }
      // As `awf runs cancel` tells a run: the child's progress, announced to its worker's QueueEvents.
      await job.updateProgress(CANCEL_PROGRESS).catch(() => undefined);
    }
    return true;
  }
}

function failedChild(id: string, reason: string): BranchResult {
  return {
    status: 'failure',
    state: { Output: '', Stderr: '', ExitCode: 1, Status: 'failure' },
    error: { code: ErrorCodes.QUEUE_JOB_FAILED, message: `child job ${id} failed: ${reason}` },
    states: {},
    reports: [],
    tool_calls: 0,
  };
}
