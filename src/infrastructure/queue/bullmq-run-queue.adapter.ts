import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { CancelOutcome, RunEvent, RunJob, RunQueue } from '../../domain/ports/run-queue.port';
import type { RunReport } from '../../domain/workflow/run-report.model';
import { signJob } from './job-signature';
import type { QueueSettings } from './queue-settings';
import { openRedis } from './redis-connection';
import { CANCEL_CHANNEL, cancelKey, RunEventStream } from './run-event-stream';

export const QUEUE_NAME = 'awf-runs';

/** Finished jobs are kept a week (what `awf runs follow` can still show), then BullMQ drops them. */
export const KEEP = { age: 7 * 24 * 3600 };

/** `awf run --queue`, `awf runs follow|cancel`: BullMQ's Queue, plus the run's event stream. */
export class BullmqRunQueue implements RunQueue {
  private readonly queue: Queue;
  private readonly redis: Redis;
  private reader?: Redis;

  constructor(
    private readonly settings: QueueSettings,
    private readonly log: (line: string) => void,
  ) {
    this.redis = openRedis(settings, log);
    this.queue = new Queue(QUEUE_NAME, { connection: this.redis });
    this.queue.on('error', () => undefined); // the connection's own handler reports it once
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
    if (!(await this.queue.getJob(runId)) && !(await new RunEventStream(this.redis, runId).all()).length)
      throw notFound(runId, this.label);
    this.reader ??= openRedis(this.settings, this.log);
    const stream = new RunEventStream(this.reader, runId);
    let lastId = '0-0';
    let checked = Date.now();
    while (!signal.aborted) {
      const read = await stream.after(lastId, 500);
      lastId = read.lastId;
      for (const event of read.events) {
        if (event.t === 'end') return event.report;
        onEvent(event);
      }
      // A job that failed or went away with no ending from a worker would be waited for forever.
      if (read.events.length || Date.now() - checked < 2000) continue;
      checked = Date.now();
      const gaveUp = await this.gaveUp(runId);
      // A cancel removes the job and then writes its ending: wait a moment for one before giving up.
      if (gaveUp && !(await stream.after(lastId, 1000)).events.length) return gaveUp;
    }
    return undefined;
  }

  /** The run's report when BullMQ failed or dropped its job without a worker's ending (taken over too often). */
  private async gaveUp(runId: string): Promise<RunReport | undefined> {
    const job = await this.queue.getJob(runId);
    const state = job ? await job.getState() : 'gone';
    if (state !== 'failed' && state !== 'gone') return undefined;
    const why = job?.failedReason ?? 'its job is no longer on the queue';
    return {
      ...cancelledBeforeStart(runId, job?.name ?? ''),
      status: 'failure',
      error: { code: ErrorCodes.QUEUE_JOB_FAILED, message: `the queue gave up on run ${runId}: ${why}` },
    };
  }

  async cancel(runId: string): Promise<CancelOutcome> {
    const job = await this.queue.getJob(runId);
    if (!job) throw notFound(runId, this.label);
    const state = await job.getState();
    if (state === 'completed' || state === 'failed') {
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
        await new RunEventStream(this.redis, runId).add({ t: 'end', report: cancelledBeforeStart(runId, job.name) });
        return 'removed';
      } catch {
        // a worker took it meanwhile: it is told to stop, as a running one is
      }
    }
    await this.redis.set(cancelKey(runId), '1', 'EX', 24 * 3600);
    await this.redis.publish(CANCEL_CHANNEL, runId);
    return 'signalled';
  }

  async close(): Promise<void> {
    await this.queue.close();
    this.reader?.disconnect();
    this.redis.disconnect();
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
