import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import type { RunIndex } from '../../domain/ports/run-index.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import type { RunReport } from '../../domain/workflow/run-report.model';
import type { RunRequest, WorkflowService } from '../workflow/workflow.service';
import { HistoryFollower } from './history-follower';
import { type AnswerOutcome, LiveRun } from './live-run';
import { PendingApprovals } from './pending-approvals';
import { type RunEventListener, RunEventLog } from './run-event-log';
import { RunEventsObserver } from './run-events.observer';

/** What every run started here shares: the server's environment, directory, storage and project inputs. */
export type RunDefaults = Pick<RunRequest, 'env' | 'cwd' | 'runsDir' | 'projectInputs'>;

export interface ExecutionHubDeps {
  workflows: WorkflowService;
  index: RunIndex;
  masker: SecretMasker;
  logger: AppLogger;
  defaults: () => RunDefaults;
  /** How long a call waits for a person's approval before it is denied (the approval desk's). */
  approvalTimeoutMs: number;
  /** Where a new run goes (`awf serve --queue`: to the workers); undefined: the server stopped following it. */
  runOn?: (request: RunRequest, stopping: () => boolean, approvals: PendingApprovals) => Promise<RunReport | undefined>;
}

/**
 * The runs `awf serve` starts, detached from the request that started them: each goes through
 * the one WorkflowService (validation, inputs, the history's journal) with its own abort signal,
 * and its events are kept for the streams that follow it. Runs it did not start are read from
 * the shared history. `stop` cancels what still runs (the history records it as cancelled, so
 * it can be resumed) and ends every stream.
 */
export class ExecutionHub {
  private readonly logs = new Map<string, RunEventLog>();
  private readonly live = new Map<string, LiveRun>();
  /** Standing askers that are not runs (`/mcp`): their questions wait here as a run's do. */
  private readonly channels = new Set<string>();
  private readonly followers = new Set<HistoryFollower>();
  private stopping = false;
  /** The calls of runs started here that wait for a person (approval desk → HTTP). */
  readonly approvals: PendingApprovals;

  constructor(
    private readonly deps: ExecutionHubDeps,
    private readonly options: { keepFinished?: number; followEveryMs?: number } = {},
  ) {
    this.approvals = new PendingApprovals(
      (runId) => (this.live.has(runId) || this.channels.has(runId) ? this.logs.get(runId) : undefined),
      deps.masker,
      deps.approvalTimeoutMs,
    );
  }

  /** Validates and starts the workflow; resolves with the run id once it has one (its first write to the history). */
  start(target: string, inputs: Record<string, string>): Promise<string> {
    const { runOn } = this.deps;
    if (runOn)
      return this.launch((request) => runOn({ ...request, target, inputs }, () => this.stopping, this.approvals));
    return this.launch((request) => this.deps.workflows.run({ ...request, target, inputs }));
  }

  /** `awf resume` over HTTP: the same run id, from the failed step on (or `from`). */
  resume(runId: string, inputs: Record<string, string>, from?: string): Promise<string> {
    return this.launch((request) => this.deps.workflows.resume({ ...request, runId, inputs, from }));
  }

  /** Asks a run started here to stop; false when this process runs no such run. */
  cancel(runId: string): boolean {
    const run = this.live.get(runId);
    run?.controller.abort(new Error('cancelled over the API'));
    return run !== undefined;
  }

  /** Undefined when this process runs no such run. */
  answer(runId: string, promptId: string | undefined, value: string): AnswerOutcome | undefined {
    return this.live.get(runId)?.answer(promptId, value);
  }

  isLive(runId: string): boolean {
    return this.live.has(runId);
  }

  /** Replays the run's events after `after`, then follows it; rejects with USER.RUN.NOT_FOUND for an unknown id. */
  async subscribe(runId: string, after: number, listener: RunEventListener): Promise<() => void> {
    const log = this.logs.get(runId);
    if (log) return log.subscribe(after, listener);
    const first = await this.deps.index.get(runId);
    // A run this process started while the history was read: its own log has it.
    const started = this.logs.get(runId);
    if (started) return started.subscribe(after, listener);
    const follower = new HistoryFollower(
      runId,
      this.deps.index,
      this.deps.masker,
      listener,
      after,
      this.options.followEveryMs ?? 1000,
      (f) => this.followers.delete(f),
    );
    this.followers.add(follower);
    return follower.start(first).stop;
  }

  /** Listeners of the events of runs this process keeps (a test's view of a closed stream). */
  listening(runId: string): number {
    return this.logs.get(runId)?.listening ?? 0;
  }

  async stop(graceMs = 30_000): Promise<void> {
    this.stopping = true;
    const running = [...this.live.values()];
    for (const run of running) run.controller.abort(new Error('awf serve is stopping'));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(running.map((r) => r.done)),
      new Promise((resolve) => (timer = setTimeout(resolve, graceMs))),
    ]);
    clearTimeout(timer);
    for (const f of [...this.followers]) f.end();
    for (const log of this.logs.values()) log.close();
  }

  private launch(
    go: (request: Omit<RunRequest, 'target' | 'inputs'>) => Promise<RunReport | undefined>,
  ): Promise<string> {
    if (this.stopping) return Promise.reject(stoppingError());
    return new Promise<string>((resolve, reject) => {
      let runId: string | undefined;
      const run = new LiveRun(
        new RunEventsObserver(this.deps.masker, (id) => {
          runId = id;
          this.live.set(id, run);
          resolve(id);
          return this.logFor(id);
        }),
      );
      const request = { ...this.deps.defaults(), signal: run.signal, observer: run.observer, userInput: run.ask };
      run.done = go(request)
        .then(
          (report) => report && run.observer.finished(report),
          (err: unknown) => {
            if (runId === undefined) return reject(err);
            // The runner reports a failing step in its report; a throw after the start is awf's own trouble.
            this.deps.logger.error({ run_id: runId, err: String(err) }, 'http api: run failed unexpectedly');
            run.observer.failed(this.deps.masker.mask(err instanceof Error ? err.message : String(err)));
          },
        )
        .finally(() => {
          if (runId) {
            this.approvals.endRun(runId);
            this.live.delete(runId);
          } else reject(new AwfError(ErrorCodes.SYSTEM_INTERNAL, 'the run ended before it had an id'));
          this.trim();
        });
    });
  }

  /**
   * A standing asker that is not a run — `/mcp`, whose calls carry this id as their run id — so its
   * questions are listed, answered and announced as a run's are; returns its closing.
   */
  openChannel(id: string): () => void {
    this.channels.add(id);
    this.logs.set(id, new RunEventLog(id));
    return () => {
      this.approvals.endRun(id);
      this.channels.delete(id);
      this.logs.get(id)?.close();
      this.logs.delete(id);
    };
  }

  isChannel(id: string): boolean {
    return this.channels.has(id);
  }

  /** A run's log: a resumed run writes on after the events of its earlier part. */
  private logFor(runId: string): RunEventLog {
    const log = this.logs.get(runId) ?? new RunEventLog(runId);
    log.reopen();
    this.logs.delete(runId);
    this.logs.set(runId, log);
    return log;
  }

  /** Keeps the events of the newest finished runs only; older ones are read from the history. */
  private trim(): void {
    let excess = this.logs.size - this.live.size - (this.options.keepFinished ?? 200);
    for (const [id, log] of this.logs) {
      if (excess <= 0) break;
      if (this.live.has(id) || this.channels.has(id)) continue;
      log.close();
      this.logs.delete(id);
      excess--;
    }
  }
}

function stoppingError(): AwfError {
  return new AwfError(
    ErrorCodes.SERVE_STOPPING,
    'awf serve is stopping: it starts no new run',
    {},
    'Send the request again once the server is back.',
  );
}
