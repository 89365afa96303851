import { join } from 'node:path';
import { type Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { verifyBundle } from '../../application/queue/run-bundle';
import type { AwfError } from '../../domain/errors/awf-error';
import type { BranchHandler, RunJob } from '../../domain/ports/run-queue.port';
import type { BranchResult } from '../../domain/workflow/ports/branch-runner.port';
import { BullmqBranchRunner } from './bullmq-branch-runner.adapter';
import { openJob } from './job-signature';
import { cancelKey, RunEventStream } from './run-event-stream';
import { writeRunFiles } from './run-files';

/** The queue of child jobs: the tasks of `fan_out: true` steps, of every run (ADR 290). */
export const BRANCH_QUEUE_NAME = 'awf-branches';

export interface BranchPoolOptions {
  worker: string;
  workdir: string;
  concurrency: number;
  lockMs: number;
  secret: string;
  label: string;
  handler: BranchHandler;
  log(line: string): void;
  /** The worker's running jobs by id, which its cancel channel aborts: children join them. */
  running: Map<string, AbortController>;
}

/**
 * A worker's side of fan-out: a BullMQ Worker of its own over the branches queue (its own
 * slots, so runs waiting for their children never take the slots the children need), and the
 * BranchRunner each of the worker's runs fans out through. A child job is checked as a run is
 * (signature, digests), gets its own directory, publishes its steps to its parent run's events,
 * and returns what its task set; a task in a child job does not fan out again.
 */
export class BullmqBranchPool {
  private readonly worker: Worker;
  private readonly queue: Queue;

  constructor(
    private readonly redis: Redis,
    /** Its Worker's own connection, closed with it. */
    private readonly connection: Redis,
    private readonly options: BranchPoolOptions,
  ) {
    this.queue = new Queue(BRANCH_QUEUE_NAME, { connection: redis });
    this.queue.on('error', () => undefined);
    this.worker = new Worker(BRANCH_QUEUE_NAME, (job) => this.process(job), {
      connection,
      concurrency: options.concurrency,
      lockDuration: options.lockMs,
      stalledInterval: options.lockMs,
      maxStalledCount: 5,
    });
    this.worker.on('error', () => undefined);
  }

  /** Where the run `job` (a job of the runs queue) sends its tasks. */
  runnerFor(job: Job, run: RunJob): BullmqBranchRunner {
    return new BullmqBranchRunner(this.queue, job, run, this.options.secret, this.redis, this.options.label);
  }

  private async process(job: Job): Promise<BranchResult> {
    const id = job.id ?? '';
    let run: RunJob;
    try {
      run = openJob(job.data, this.options.secret, job.id);
      verifyBundle(run);
      if (!run.fan_out) throw new UnrecoverableError('not a child job');
    } catch (err) {
      this.options.log(`child ${id}: ${(err as Error).message}`);
      throw new UnrecoverableError(`${(err as AwfError).code ?? 'refused'}: ${(err as Error).message}`);
    }
    const controller = new AbortController();
    this.options.running.set(id, controller);
    if (await this.redis.exists(cancelKey(id))) controller.abort();
    const events = new RunEventStream(this.redis, run.fan_out.parent_run);
    const dir = join(this.options.workdir, id);
    this.options.log(`child ${id} (${job.name}) of run ${run.fan_out.parent_run} taken`);
    try {
      writeRunFiles(dir, run);
      const result = await this.options.handler(run, {
        dir,
        worker: this.options.worker,
        previous: [],
        publish: (e) => void events.add(e).catch(() => undefined),
        signal: controller.signal,
        draining: () => false,
      });
      this.options.log(`child ${id} ${result.status}`);
      return result;
    } finally {
      this.options.running.delete(id);
    }
  }

  /** Called after the runs' worker closed: children its runs wait for are taken until then. */
  async close(): Promise<void> {
    await this.worker.close();
    await this.queue.close();
    this.connection.disconnect();
  }
}
