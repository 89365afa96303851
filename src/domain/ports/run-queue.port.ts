import type { ApprovalAnswer, ApprovalRequest } from './approval-gate.port';
import type { MetricsRecorder } from './metrics.port';
import type { StepStateData } from '../workflow/interpolation.types';
import type { BranchResult, BranchRunner, BranchTask } from '../workflow/ports/branch-runner.port';
import type { RunReport, StepResult } from '../workflow/run-report.model';

/** One file a queued run carries: its path relative to the workflow's directory, its text and digest. */
export interface BundleFile {
  path: string;
  sha256: string;
  text: string;
}

/**
 * A run as it travels through the queue: the workflow and every file it references, so a
 * worker needs no shared disk. Secret inputs are never in it (workers take them from their
 * own environment).
 */
export interface RunJob {
  run_id: string;
  workflow: string;
  /** The workflow file, one of `files`. */
  entry: string;
  files: BundleFile[];
  inputs: Record<string, string>;
  enqueued_at: string;
  /** Its questions are answered through the `awf serve` that queued it (ADR 310); absent: nobody asked. */
  ask?: boolean;
  /** A child job: one task of a `fan_out: true` step of run `parent_run` (ADR 290). */
  fan_out?: FanOutPart;
}

/** What a child job runs: one branch or item of its parent run's step, from the parent's (masked) states. */
export interface FanOutPart {
  parent_run: string;
  step: string;
  task: BranchTask;
  states: Record<string, StepStateData>;
}

/**
 * One run's events, in order, as followers read them and as the next worker reads them to
 * resume: a `recorded` step is a checkpoint (its state is what later steps read).
 */
export type RunEvent =
  | { t: 'started'; run_id: string; workflow: string; worker: string }
  | { t: 'step'; step: string; type: string }
  | { t: 'finished'; report: StepResult }
  | { t: 'recorded'; step: StepResult }
  | { t: 'retrying'; step: string; attempt: number; delay_ms: number }
  | { t: 'output'; step: string; stream: 'stdout' | 'stderr'; text: string }
  | { t: 'warn' | 'info' | 'log'; message: string }
  | { t: 'handed-back'; worker: string }
  | { t: 'approval'; approval: QueuedApproval }
  | { t: 'approval-resolved'; approval_id: string; answer: ApprovalAnswer['answer']; by: string }
  | { t: 'end'; report: RunReport };

/** A question a step on a worker asks (an `approve` rule matched); answered through `awf serve` (ADR 310). */
export interface QueuedApproval {
  approval_id: string;
  step: string;
  tool: string;
  /** Masked by the step's proxy before they leave it. */
  arguments: Record<string, unknown>;
  /** The first `approve` rule the call matched, as `awf run` shows it; `rules` has them all. */
  rule: string;
  rules: string[];
  /** What a person may answer: this call, the rule for the rest of the step, these very arguments. */
  scopes: Array<'once' | 'step' | 'exact'>;
  requested_at: string;
}

export type CancelOutcome = 'removed' | 'signalled';

/**
 * The client side of the queue (`awf run --queue`, `awf runs follow|cancel`).
 * - `enqueue` signs and adds the job; its id is the run id;
 * - `follow` calls `onEvent` for every event from the first, live, and resolves with the run's
 *   report when it ends, or undefined when `signal` aborts first (the run goes on);
 * - `cancel`: a waiting run is removed (`removed`), a running one is told to stop (`signalled`);
 *   `USER.RUN.NOT_FOUND` for an unknown id, `USER.QUEUE.RUN_ENDED` for one that ended.
 * Every method fails with `SYSTEM.QUEUE.UNAVAILABLE` when the queue cannot be reached at first.
 */
export interface RunQueue {
  /** The queue's URL with its password masked, for messages. */
  readonly label: string;
  enqueue(job: RunJob): Promise<void>;
  follow(runId: string, onEvent: (event: RunEvent) => void, signal: AbortSignal): Promise<RunReport | undefined>;
  cancel(runId: string): Promise<CancelOutcome>;
  /** Sends a person's answer to the worker that asked `approvalId` (signed); false once the run is not running. */
  answer(runId: string, approvalId: string, answer: ApprovalAnswer): Promise<boolean>;
  close(): Promise<void>;
}

/** What a worker hands each job to: executes it, publishing its events, and says how it ended. */
export interface JobContext {
  /** The run's own directory, where the job's files were written: its working directory. */
  dir: string;
  /** The worker's name (host:pid), for the run's events. */
  worker: string;
  /** Events of earlier attempts (another worker died or handed it back): the checkpoint. */
  previous: RunEvent[];
  publish(event: RunEvent): void;
  /** Aborted by `awf runs cancel`. */
  signal: AbortSignal;
  /** True once the worker is stopping: the run stops before its next step and is handed back. */
  draining(): boolean;
  /** A run's `fan_out: true` steps send their tasks here, as child jobs (absent in a child job). */
  branches?: BranchRunner;
}

export type JobHandler = (job: RunJob, context: JobContext) => Promise<RunReport>;
/** What a worker does with a child job: runs its task, publishing to the parent run's events. */
export type BranchHandler = (job: RunJob, context: JobContext) => Promise<BranchResult>;

export interface WorkerOptions {
  concurrency: number;
  /** Where each run gets its own directory, `<workdir>/<run id>/` (default: the process's cwd). */
  workdir?: string;
  handler: JobHandler;
  /** Given: the worker also takes child jobs (fan-out tasks of any run) and its runs may fan out. */
  branchHandler?: BranchHandler;
  /** One line about each job (taken, ended, refused, handed back), for the worker's log. */
  log(line: string): void;
  /** Where each run's wait and run time, and the queue's depth, are recorded (awf.queue.*). */
  metrics?: MetricsRecorder;
}

/** The worker side: takes jobs until `stop`, which lets running ones reach a step boundary. */
export interface RunWorkerPool {
  readonly label: string;
  /**
   * A step's question, asked of whoever follows its run (an `approval` event), answered through the
   * queue; `timeoutMs` without an answer: denied (`auto` rules: approved). A run not on this worker: unattended.
   */
  ask(request: ApprovalRequest, timeoutMs: number): Promise<ApprovalAnswer>;
  stop(): Promise<void>;
}

/** Opens the queue named by a URL (bullmq loaded only then). */
export interface RunQueues {
  client(url: string): Promise<RunQueue>;
  worker(url: string, options: WorkerOptions): Promise<RunWorkerPool>;
}

export const RUN_QUEUES = Symbol.for('awf.RunQueues');
