import { setTimeout as sleep } from 'node:timers/promises';
import type { RunEvent } from '../../domain/ports/run-queue.port';
import type { AnyQueue } from './queue-backend';

type JobLogs = Pick<AnyQueue, 'addJobLog' | 'getJobLogs'>;

/** A write that fails (the queue is away) is tried again after 0.2 s, 0.4 s, … 5 s, for this long. */
const RETRY_MS = 5 * 60_000;
const backoff = (attempt: number): number => Math.min(200 * 2 ** attempt, 5000);

/**
 * One run's events as its BullMQ job's log (the same call on Redis and on PostgreSQL), in order:
 * read from the start by followers and by the worker that takes the run over. They live as long
 * as the job: a week after it ended (KEEP).
 */
export class RunEventLog {
  constructor(
    private readonly queue: JobLogs,
    private readonly runId: string,
  ) {}

  /**
   * Sent at once, not after the previous write's answer: a worker killed right after a step
   * ended has its checkpoint out already. One connection (see QueueBackend.connection) keeps the
   * order; only a write retried after an outage may land after later ones.
   */
  async add(event: RunEvent): Promise<void> {
    const row = JSON.stringify(event);
    const until = Date.now() + RETRY_MS;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.queue.addJobLog(this.runId, row);
        return;
      } catch (err) {
        // BullMQ's "Missing key for job": the job is gone (cancelled, dropped), nothing to write to.
        if (/Missing key/.test((err as Error).message) || Date.now() > until) throw err;
        await sleep(backoff(attempt));
      }
    }
  }

  async all(): Promise<RunEvent[]> {
    return this.from(0);
  }

  /** The events from the `index`-th on (0 is the first). */
  async from(index: number): Promise<RunEvent[]> {
    const { logs } = await this.queue.getJobLogs(this.runId, index, -1, true);
    return logs.map((row) => JSON.parse(row) as RunEvent);
  }

  /** True once a worker wrote the run's ending (its job may still be completing). */
  async ended(): Promise<boolean> {
    const { logs } = await this.queue.getJobLogs(this.runId, -1, -1, true);
    return logs.length > 0 && (JSON.parse(logs[0]) as RunEvent).t === 'end';
  }
}

/**
 * How `awf runs cancel` tells a running run to stop: the job's progress, which BullMQ keeps with
 * the job (a worker that takes the run over later sees it) and announces to QueueEvents.
 */
export const CANCEL_PROGRESS = { cancel: true };

/**
 * Reads a running job's progress every second and hands it to `seen`. QueueEvents announces a
 * cancel or an answer at once, but an announcement can be missed (seen on PostgreSQL under load:
 * a run went on after its cancel); this read is the fallback. Stop it with clearInterval.
 */
export function readProgress(
  queue: Pick<AnyQueue, 'getJob'>,
  jobId: string,
  seen: (progress: unknown) => void,
): NodeJS.Timeout {
  return setInterval(() => {
    void queue
      .getJob(jobId)
      .then((job) => job && seen(job.progress))
      .catch(() => undefined); // the queue is away: QueueEvents and the next read try again
  }, 1000);
}
export const cancelRequested = (progress: unknown): boolean =>
  typeof progress === 'object' && progress !== null && (progress as { cancel?: unknown }).cancel === true;
