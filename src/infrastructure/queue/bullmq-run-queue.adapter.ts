import { setTimeout as sleep } from 'node:timers/promises';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { ApprovalAnswer } from '../../domain/ports/approval-gate.port';
import type { CancelOutcome, RunEvent, RunJob, RunQueue } from '../../domain/ports/run-queue.port';
import type { RunReport } from '../../domain/workflow/run-report.model';
import { signAnswer, signJob } from './job-signature';
import type { QueueSettings } from './queue-settings';
import { type AnyQueue, QUEUE_NAME, QueueBackend } from './queue-backend';
import { CANCEL_PROGRESS, cancelRequested, RunEventLog } from './run-event-log';

/** Finished jobs are kept a week (what `awf runs follow` can still show), then BullMQ drops them. */
export const KEEP = { age: 7 * 24 * 3600 };

/** How often a follower looks for new events while the run is quiet. */
const POLL_MS = 100;

/** `awf run --queue`, `awf runs follow|cancel`: BullMQ's Queue, on Redis or PostgreSQL; events are job logs. */
export class BullmqRunQueue implements RunQueue {
  private readonly backend: QueueBackend;
  private readonly queue: AnyQueue;

  constructor(
    private readonly settings: QueueSettings,
    log: (line: string) => void,
  ) {
    this.backend = new QueueBackend(settings, log);
    this.queue = this.backend.watch(new this.backend.Queue(QUEUE_NAME, { connection: this.backend.connection() }));
  }

  get label(): string {
    return this.settings.label;
  }

  async enqueue(job: RunJob): Promise<void> {
    await this.queue.add(job.workflow, signJob(job, this.settings.secret), {
      jobId: job.run_id,
      removeOnComplete: KEEP,
      removeOnFail: KEEP,
    });
  }

  async follow(runId: string, onEvent: (e: RunEvent) => void, signal: AbortSignal): Promise<RunReport | undefined> {
    const events = new RunEventLog(this.queue, runId);
    const job = await this.queue.getJob(runId);
    if (!job && !(await events.all()).length) throw notFound(runId, this.label);
    let seen = 0;
    let checked = Date.now();
    while (!signal.aborted) {
      const read = await events.from(seen);
      seen += read.length;
      for (const event of read) {
        if (event.t === 'end') return event.report;
        onEvent(event);
      }
      if (read.length) continue;
      await sleep(POLL_MS, undefined, { signal }).catch(() => undefined);
      // A job that failed or went away with no ending from a worker would be waited for forever.
      if (Date.now() - checked < 1000) continue;
      checked = Date.now();
      const gaveUp = await this.gaveUp(runId, job?.name ?? '');
      // A worker may write the ending just after the job failed: one last look before giving up.
      if (gaveUp && !(await events.from(seen)).length) return gaveUp;
    }
    return undefined;
  }

  /** The run's report when BullMQ failed or dropped its job without a worker's ending (taken over too often). */
  private async gaveUp(runId: string, workflow: string): Promise<RunReport | undefined> {
    const job = await this.queue.getJob(runId);
    // A job removed before a worker took it (`awf runs cancel`, or by hand) never ran: cancelled.
    if (!job) return cancelledBeforeStart(runId, workflow);
    if ((await job.getState()) !== 'failed') return undefined;
    return {
      ...cancelledBeforeStart(runId, job.name),
      status: 'failure',
      error: { code: ErrorCodes.QUEUE_JOB_FAILED, message: `the queue gave up on run ${runId}: ${job.failedReason}` },
    };
  }

  async cancel(runId: string): Promise<CancelOutcome> {
    const job = await this.queue.getJob(runId);
    if (!job) throw notFound(runId, this.label);
    const state = await job.getState();
    if (state === 'completed' || state === 'failed' || (await new RunEventLog(this.queue, runId).ended())) {
      throw new AwfError(
        ErrorCodes.QUEUE_RUN_ENDED,
        `run ${runId} has already ended`,
        { run_id: runId, state },
        `See how: awf runs follow ${runId} --queue ${this.label}`,
      );
    }
    if (state !== 'active') {
      try {
        await job.remove();
        return 'removed';
      } catch {
        // a worker took it meanwhile: it is told to stop, as a running one is
      }
    }
    await job.updateProgress(CANCEL_PROGRESS);
    return 'signalled';
  }

  /**
   * The answer rides on the job's progress (kept with any cancel), which QueueEvents announces to
   * every worker; only the one whose run asked takes it (ADR 310).
   */
  async answer(runId: string, approvalId: string, answer: ApprovalAnswer): Promise<boolean> {
    const job = await this.queue.getJob(runId);
    if (!job || (await job.getState()) !== 'active') return false;
    const signed = signAnswer({ run_id: runId, approval_id: approvalId, answer }, this.settings.secret);
    await job.updateProgress({ ...(cancelRequested(job.progress) ? CANCEL_PROGRESS : {}), answer: signed });
    return true;
  }

  async close(): Promise<void> {
    await this.queue.close();
    this.backend.disconnect();
  }
}

function cancelledBeforeStart(runId: string, workflow: string): RunReport {
  return { workflow, run_id: runId, status: 'cancelled', duration_ms: 0, output: '', steps: [] };
}

function notFound(runId: string, label: string): AwfError {
  return new AwfError(
    ErrorCodes.RUN_NOT_FOUND,
    `no run ${runId} on the queue ${label}`,
    { run_id: runId },
    'Give the full run id that `awf run --queue` printed; finished runs are kept a week.',
  );
}
