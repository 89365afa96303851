import type { RunReport } from '../../domain/workflow/run-report.model';

/** How a turn ended, from the run's side: it asks the person, or it is over. */
export type TurnEnd = { kind: 'asked'; step: string } | { kind: 'finished'; report?: RunReport; error?: unknown };

interface SessionRun {
  workflow: string;
  controller: AbortController;
  runId?: string;
  /** The run's question, waiting for the next prompt. */
  answer?: (text: string | undefined) => void;
}

/**
 * One editor session: at most one prompt in flight and one run, which outlives the turn that
 * started it when it asks for the next message (a `mode: conversation` step). The turn that
 * waits is woken by whichever comes first: the run's question or its end.
 */
export class AcpSession {
  inFlight = false;
  private run?: SessionRun;
  private wake?: (end: TurnEnd) => void;
  /** A question or end that came while no turn waited (the run outran the prompt). */
  private pending?: TurnEnd;

  constructor(
    readonly id: string,
    readonly cwd: string,
  ) {}

  /** The workflow whose question the next prompt answers; undefined when none waits. */
  get waitingWorkflow(): string | undefined {
    return this.run?.answer ? this.run.workflow : undefined;
  }

  get runId(): string | undefined {
    return this.run?.runId;
  }

  /** Aborts when the session's run is cancelled. */
  get signal(): AbortSignal | undefined {
    return this.run?.controller.signal;
  }

  /** Starts a run (`go` gets its abort signal and the session's way to ask); a turn then waits on it. */
  begin(
    workflow: string,
    go: (signal: AbortSignal, ask: (step: string) => Promise<string | undefined>) => Promise<RunReport>,
  ): void {
    const run: SessionRun = { workflow, controller: new AbortController() };
    this.run = run;
    this.pending = undefined;
    go(run.controller.signal, (step) => this.ask(run, step)).then(
      (report) => this.end(run, { kind: 'finished', report }),
      (error: unknown) => this.end(run, { kind: 'finished', error }),
    );
  }

  started(runId: string): void {
    if (this.run) this.run.runId = runId;
  }

  /** The next prompt's text goes to the waiting run; an empty one ends its conversation. */
  answer(text: string): void {
    const settle = this.run?.answer;
    if (!settle || !this.run) return;
    this.run.answer = undefined;
    settle(text.trim() ? text : undefined);
  }

  /** Resolves when the run asks again or ends. */
  nextTurnEnd(): Promise<TurnEnd> {
    const ready = this.pending;
    if (ready) {
      this.pending = undefined;
      return Promise.resolve(ready);
    }
    return new Promise((resolve) => (this.wake = resolve));
  }

  /** Stops the run and everything it started; a waiting question gets no answer. */
  cancel(reason: string): boolean {
    const run = this.run;
    if (!run) return false;
    run.controller.abort(new Error(reason));
    run.answer?.(undefined);
    run.answer = undefined;
    return true;
  }

  private ask(run: SessionRun, step: string): Promise<string | undefined> {
    if (run.controller.signal.aborted || this.run !== run) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      run.answer = resolve;
      this.notify({ kind: 'asked', step });
    });
  }

  /** A run cancelled and replaced by the next prompt's ends unheard: its turn is long over. */
  private end(run: SessionRun, end: TurnEnd): void {
    if (this.run !== run) return;
    this.run = undefined;
    this.notify(end);
  }

  private notify(end: TurnEnd): void {
    const wake = this.wake;
    this.wake = undefined;
    if (wake) wake(end);
    else this.pending = end;
  }
}
