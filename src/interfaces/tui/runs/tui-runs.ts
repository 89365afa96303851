import type { RunRequest, WorkflowService } from '../../../application/workflow/workflow.service';
import type { ApprovalAnswer, ApprovalRequest } from '../../../domain/ports/approval-gate.port';
import type { SecretMasker } from '../../../domain/ports/secret-masker.port';
import type { HistoryReader } from '../history/history.reader';
import { watchHistoryRuns } from './history-runs.watch';
import { RunViewStore } from './run-view.store';

/** How many runs Monitoring keeps to step through with `n` (launched here or followed). */
const KEPT_RUNS = 20;

/** What every run launched from the tui shares: awf's environment, directory, storage and project inputs. */
export type RunDefaults = Pick<RunRequest, 'env' | 'cwd' | 'runsDir' | 'projectInputs'>;

/**
 * The runs launched from the tui, each through the one WorkflowService (validation, inputs,
 * the run history's journal) with its own abort signal, and those `watch` finds running in the
 * history (started elsewhere). Monitoring shows `current`: the newest launched here, or a run
 * found elsewhere when the one shown has ended; `next` steps through them all.
 * `stop` cancels what still runs and waits for it, so quitting leaves no process behind.
 */
export class TuiRuns {
  current?: RunViewStore;
  version = 0;
  /** Every run shown, oldest first (at most KEPT_RUNS). */
  readonly all: RunViewStore[] = [];
  private readonly live = new Map<RunViewStore, { controller: AbortController; done: Promise<void> }>();
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly workflows: Pick<WorkflowService, 'run'>,
    private readonly masker: SecretMasker,
    private readonly defaults: () => RunDefaults,
    private readonly history?: HistoryReader,
  ) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  launch(target: string, inputs: Record<string, string>): RunViewStore {
    const store = new RunViewStore(target, this.masker);
    const controller = new AbortController();
    const done = this.workflows
      .run({ ...this.defaults(), target, inputs, signal: controller.signal, observer: store, userInput: store.ask })
      .then(
        (report) => store.finished(report),
        (err: unknown) => store.failed(err),
      )
      .finally(() => this.live.delete(store));
    this.live.set(store, { controller, done });
    this.show(store, true);
    return store;
  }

  /** Follows the runs started elsewhere, from the history, every `everyMs`; returns the stop. */
  watch(everyMs = 1000): () => void {
    if (!this.history) return () => undefined;
    return watchHistoryRuns(
      this.history,
      {
        // A launch without its id yet could be listed: it is known until it has one.
        unfinished: () => this.all.filter((s) => s.elsewhere && s.status === 'running'),
        knows: (runId) => this.all.some((s) => s.runId === runId || (this.live.has(s) && !s.runId)),
        adopt: (runId, workflow) => {
          const store = new RunViewStore(workflow, this.masker);
          store.elsewhere = {};
          store.runStarted(runId);
          const shown = this.current?.status;
          this.show(store, shown !== 'starting' && shown !== 'running');
          return store;
        },
      },
      everyMs,
    );
  }

  /** Shows the run after the current one (the first after the last). */
  next(): void {
    if (this.all.length < 2) return;
    const at = this.current ? this.all.indexOf(this.current) : -1;
    this.current = this.all[(at + 1) % this.all.length];
    this.changed();
  }

  private show(store: RunViewStore, current: boolean): void {
    this.all.push(store);
    if (this.all.length > KEPT_RUNS) this.all.splice(0, this.all.length - KEPT_RUNS);
    if (current) this.current = store;
    this.changed();
  }

  private changed(): void {
    this.version++;
    for (const l of this.listeners) l();
  }

  /** Cancels the run shown in Monitoring; false when it is not running. */
  cancel(store: RunViewStore): boolean {
    const run = this.live.get(store);
    run?.controller.abort(new Error('cancelled from the tui'));
    store.question?.answer(undefined);
    return run !== undefined;
  }

  /**
   * A policy `approve` rule's question, asked on the input line of the run that made the call:
   * `y` approves this call, `a` every call of the tool for the rest of the step, anything else denies.
   */
  readonly approve = async (request: ApprovalRequest): Promise<ApprovalAnswer> => {
    const store = [...this.live.keys()].find((s) => s.runId === request.runId) ?? this.current;
    if (!store) return { answer: 'deny', by: 'no channel' };
    const rule = request.rules[0] ?? 'an approve rule';
    const reply = await store.askPerson(
      request.step ?? '',
      `approve ${request.tool} (${rule})? y = this call, a = always in this step, n = deny`,
    );
    const answer = reply === 'y' ? 'once' : reply === 'a' ? 'always' : 'deny';
    return { answer, by: 'person' };
  };

  async stop(): Promise<void> {
    const running = [...this.live.entries()];
    for (const [store] of running) this.cancel(store);
    await Promise.allSettled(running.map(([, run]) => run.done));
  }
}
