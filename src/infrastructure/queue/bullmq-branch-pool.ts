import { join } from 'node:path';
import { type Job, UnrecoverableError } from 'bullmq';
import { verifyBundle } from '../../application/queue/run-bundle';
import type { AwfError } from '../../domain/errors/awf-error';
import type { BranchHandler, RunJob } from '../../domain/ports/run-queue.port';
import type { BranchResult } from '../../domain/workflow/ports/branch-runner.port';
import { BullmqBranchRunner } from './bullmq-branch-runner.adapter';
import { openJob } from './job-signature';
import type { AnyQueue, AnyQueueEvents, AnyWorker, QueueBackend } from './queue-backend';
import { cancelRequested, readProgress, RunEventLog } from './run-event-log';
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
  private readonly worker: AnyWorker;
  private readonly queue: AnyQueue;
  private readonly cancels: AnyQueueEvents;

  constructor(
    backend: QueueBackend,
    /** The runs queue: a child's steps go to its parent run's events there. */
    private readonly runs: AnyQueue,
    private readonly options: BranchPoolOptions,
  ) {
    this.queue = backend.watch(new backend.Queue(BRANCH_QUEUE_NAME, { connection: backend.connection() }));
    this.cancels = backend.watch(new backend.QueueEvents(BRANCH_QUEUE_NAME, { connection: backend.connection() }));
    this.cancels.on('progress', ({ jobId, data }) => {
      if (cancelRequested(data)) options.running.get(jobId)?.abort();
    });
    this.worker = backend.watch(
      new backend.Worker(BRANCH_QUEUE_NAME, (job) => this.process(job), {
        connection: backend.connection(),
        concurrency: options.concurrency,
        lockDuration: options.lockMs,
        stalledInterval: options.lockMs,
        maxStalledCount: 5,
      }),
    );
  }

  /** Where the run `job` (a job of the runs queue) sends its tasks. */
  runnerFor(job: Job, run: RunJob): BullmqBranchRunner {
    return new BullmqBranchRunner(this.queue, job, run, this.options.secret, this.options.label);
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
    if (cancelRequested(job.progress)) controller.abort();
    const watch = readProgress(this.queue, id, (progress) => cancelRequested(progress) && controller.abort());
    const events = new RunEventLog(this.runs, run.fan_out.parent_run);
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
      clearInterval(watch);
      this.options.running.delete(id);
    }
  }

  /** Called after the runs' worker closed: children its runs wait for are taken until then. */
  async close(): Promise<void> {
    await this.worker.close();
    await Promise.all([this.cancels.close(), this.queue.close()]);
  }
}
