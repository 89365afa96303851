import { ToolFailure } from '../tool-failure.error';

/**
 * At most `size` JS Grep workers at once, the rest waiting in arrival order: a worker thread
 * costs a V8 isolate (about 10 MiB) plus the file it holds, so 1000 concurrent Greps must not
 * mean 1000 workers. A waiting call can be cancelled while it waits.
 */
export class WorkerSlots {
  private busy = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly size: number) {}

  /** Slots held now. */
  get busyCount(): number {
    return this.busy;
  }

  /** Resolves with a release function once a slot is free; rejects when the call is cancelled meanwhile. */
  acquire(signal: AbortSignal): Promise<() => void> {
    if (this.busy < this.size) {
      this.busy++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const grant = (): void => {
        signal.removeEventListener('abort', onAbort);
        this.busy++;
        resolve(this.releaser());
      };
      const leave = (failure: ToolFailure): void => {
        const at = this.waiting.indexOf(grant);
        if (at !== -1) this.waiting.splice(at, 1);
        signal.removeEventListener('abort', onAbort);
        reject(failure);
      };
      const onAbort = (): void => leave(new ToolFailure('Grep: cancelled'));
      if (signal.aborted) return leave(new ToolFailure('Grep: cancelled'));
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(grant);
    });
  }

  private releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.busy--;
      this.waiting.shift()?.();
    };
  }
}
