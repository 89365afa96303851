import { hostname } from 'node:os';
import { join } from 'node:path';
import { type Job, UnrecoverableError, WaitingError } from 'bullmq';
import { verifyBundle } from '../../application/queue/run-bundle';
import { type AwfError, isAwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { RunEvent, RunJob, RunWorkerPool, WorkerOptions } from '../../domain/ports/run-queue.port';
import type { ApprovalAnswer, ApprovalRequest } from '../../domain/ports/approval-gate.port';
import type { RunReport } from '../../domain/workflow/run-report.model';
import { openJob } from './job-signature';
import { type AnyQueue, type AnyQueueEvents, type AnyWorker, QUEUE_NAME, QueueBackend } from './queue-backend';
import type { QueueSettings } from './queue-settings';
import { cancelRequested, readProgress, RunEventLog } from './run-event-log';
import { writeRunFiles } from './run-files';
import { BullmqBranchPool } from './bullmq-branch-pool';
import { WorkerApprovals } from './worker-approvals';

/** How the pool runs a job: where its files go, and what the application does with it. */
export interface PoolOptions extends WorkerOptions {
  workdir: string;
  /** How long a job's lock lasts without renewal: a worker gone this long has its runs taken over. */
  lockMs: number;
}

/**
 * `awf worker`: BullMQ's Worker over the runs queue, on Redis or PostgreSQL. Each job is checked
 * (signature, digests), its files written to `<workdir>/<run id>/`, and run from the checkpoint
 * its events (the job's log) hold. A worker killed outright loses its lock; BullMQ's stalled-job
 * check gives the run to another. A cancel arrives as the job's progress, through QueueEvents.
 */
export class BullmqWorkerPool implements RunWorkerPool {
  readonly name = `${hostname()}:${process.pid}`;
  private readonly backend: QueueBackend;
  private readonly queue: AnyQueue;
  private readonly cancels: AnyQueueEvents;
  private readonly worker: AnyWorker;
  private readonly running = new Map<string, AbortController>();
  private draining = false;
  private readonly branches?: BullmqBranchPool;
  private readonly approvals: WorkerApprovals;

  constructor(
    private readonly settings: QueueSettings,
    private readonly options: PoolOptions,
  ) {
    const backend = (this.backend = new QueueBackend(settings, options.log));
    this.approvals = new WorkerApprovals(settings.secret);
    this.queue = backend.watch(new backend.Queue(QUEUE_NAME, { connection: backend.connection(true) }));
    this.cancels = backend.watch(new backend.QueueEvents(QUEUE_NAME, { connection: backend.connection() }));
    this.cancels.on('progress', ({ jobId, data }) => {
      if (cancelRequested(data)) this.running.get(jobId)?.abort();
      this.approvals.received(jobId, data);
    });
    this.worker = new backend.Worker(QUEUE_NAME, (job, token) => this.process(job, token), {
      connection: backend.connection(),
      concurrency: options.concurrency,
      lockDuration: options.lockMs,
      stalledInterval: options.lockMs,
      // A run that outlives several workers is still a run: it resumes at its checkpoint each time.
      maxStalledCount: 5,
    });
    backend.watch(this.worker);
    const { branchHandler: handler, concurrency, lockMs, workdir, log } = options;
    // Fan-out (ADR 290): child jobs on a Worker of their own.
    this.branches =
      handler &&
      new BullmqBranchPool(backend, this.queue, {
        ...{ handler, concurrency, lockMs, workdir, log, running: this.running },
        ...{ worker: this.name, secret: settings.secret, label: settings.label },
      });
    if (options.metrics?.enabled) {
      options.metrics.observeQueue(async () => {
        const counts = await this.queue.getJobCounts('waiting', 'active', 'delayed');
        return { waiting: counts.waiting ?? 0, active: counts.active ?? 0, delayed: counts.delayed ?? 0 };
      });
    }
  }

  get label(): string {
    return this.settings.label;
  }

  ask(request: ApprovalRequest, timeoutMs: number): Promise<ApprovalAnswer> {
    return this.approvals.ask(request, timeoutMs);
  }

  private async process(job: Job, token: string | undefined): Promise<string> {
    const runId = job.id ?? '';
    const events = new RunEventLog(this.queue, runId);
    const previous = await events.all();
    const ended = previous.find((e): e is Extract<RunEvent, { t: 'end' }> => e.t === 'end');
    if (ended) return ended.report.status; // it ended before the lock was lost: nothing runs twice
    let run: RunJob;
    try {
      run = openJob(job.data, this.settings.secret, job.id);
      verifyBundle(run);
    } catch (err) {
      const error = err as AwfError;
      this.options.log(`run ${runId}: ${error.message}`);
      await events.add({ t: 'end', report: failed(runId, job.name, error) });
      throw new UnrecoverableError(`${error.code}: ${error.message}`);
    }
    const controller = new AbortController();
    this.running.set(runId, controller);
    // Only a run whose follower can answer asks; others are answered unattended, at once.
    if (run.ask) this.approvals.track(runId, events);
    // A cancel that came before this worker listened for it is in the job's progress.
    if (cancelRequested(job.progress) || cancelRequested((await this.queue.getJob(runId))?.progress))
      controller.abort();
    // An answer read twice is taken once (WorkerApprovals).
    const watch = readProgress(this.queue, runId, (progress) => {
      if (cancelRequested(progress)) controller.abort();
      this.approvals.received(runId, progress);
    });
    this.options.log(`run ${runId} (${run.workflow}) taken${previous.length ? ', resuming' : ''}`);
    const taken = Date.now();
    const dir = join(this.options.workdir, runId);
    try {
      const report = await Promise.resolve()
        .then(() => writeRunFiles(dir, run))
        .then(() =>
          this.options.handler(run, {
            dir,
            worker: this.name,
            previous,
            publish: (e) => void events.add(e).catch(() => undefined),
            signal: controller.signal,
            draining: () => this.draining,
            ...(this.branches ? { branches: this.branches.runnerFor(job, run) } : {}),
          }),
        )
        .catch((err: unknown) => failed(runId, run.workflow, err));
      if (this.draining && report.status === 'cancelled' && !controller.signal.aborted) {
        await events.add({ t: 'handed-back', worker: this.name });
        await job.moveToWait(token);
        this.options.log(`run ${runId} handed back`);
        throw new WaitingError();
      }
      await events.add({ t: 'end', report });
      this.options.log(`run ${runId} ${report.status}`);
      this.options.metrics?.queuedRun({
        workflow: run.workflow,
        status: report.status,
        // BullMQ's timestamp is when the job was added; a job handed back waits from then on too.
        waitMs: Math.max(0, (job.processedOn ?? taken) - job.timestamp),
        runMs: Date.now() - taken,
      });
      return report.status;
    } finally {
      clearInterval(watch);
      this.running.delete(runId);
      this.approvals.untrack(runId);
    }
  }

  /** Takes no new job; running ones stop before their next step and go back to the queue. */
  async stop(): Promise<void> {
    this.draining = true;
    await this.worker.close();
    // Only now: until the runs in flight ended their step, their children are taken here too.
    await this.branches?.close();
    await Promise.all([this.cancels.close(), this.queue.close()]);
    this.backend.disconnect();
  }
}

/** A run that could not run (refused, its files not written, a bug): its report, so followers end. */
function failed(runId: string, workflow: string, err: unknown): RunReport {
  const io = typeof (err as NodeJS.ErrnoException)?.code === 'string' && !isAwfError(err);
  const error = isAwfError(err)
    ? { code: err.code, message: err.message, ...(err.hint ? { hint: err.hint } : {}) }
    : {
        code: io ? ErrorCodes.SYSTEM_IO : ErrorCodes.SYSTEM_INTERNAL,
        message: err instanceof Error ? err.message : String(err),
      };
  return { workflow, run_id: runId, status: 'failure', duration_ms: 0, output: '', steps: [], error };
}
