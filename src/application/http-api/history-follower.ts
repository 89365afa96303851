import type { RunDetail, RunIndex } from '../../domain/ports/run-index.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import { historyEvents } from './history-events';
import type { RunEventListener } from './run-event-log';

/**
 * Streams a run that another process runs (or ran) from the shared history: what is recorded
 * now, then what is new at each look, until the run has ended (or its process is gone).
 * `stop` is for the listener going away; `end` for the server stopping.
 */
export class HistoryFollower {
  private sent: number;
  private timer?: NodeJS.Timeout;
  private over = false;

  constructor(
    private readonly runId: string,
    private readonly index: RunIndex,
    private readonly masker: SecretMasker,
    private readonly listener: RunEventListener,
    after: number,
    private readonly everyMs: number,
    private readonly onOver: (follower: HistoryFollower) => void,
  ) {
    this.sent = after;
  }

  start(first: RunDetail): this {
    if (!this.push(first)) this.timer = setTimeout(this.look, this.everyMs);
    return this;
  }

  readonly stop = (): void => {
    if (this.over) return;
    this.over = true;
    clearTimeout(this.timer);
    this.onOver(this);
  };

  end(): void {
    if (this.over) return;
    this.stop();
    this.listener.end();
  }

  private readonly look = (): void => {
    if (this.over) return;
    this.index.get(this.runId).then(
      (run) => {
        if (!this.over && !this.push(run)) this.timer = setTimeout(this.look, this.everyMs);
      },
      () => this.end(), // pruned meanwhile
    );
  };

  /** Sends what is new; true once the run has ended (the listener is ended too). */
  private push(run: RunDetail): boolean {
    for (const e of historyEvents(run, this.masker)) {
      if (e.seq <= this.sent) continue;
      this.sent = e.seq;
      this.listener.event(e);
    }
    if (run.status === 'running') return false;
    this.end();
    return true;
  }
}
