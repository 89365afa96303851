import { isRequestId, type RequestId } from './json-rpc';

/**
 * A client that sends 1000 calls at once would otherwise have 1000 reads, buffers and promise
 * chains alive together: peak RSS grew by ~50 MB in such a burst, and a 2-core machine gains
 * nothing from more calls in progress than this. A waiting call holds only its params.
 */
export const MAX_CONCURRENT_CALLS = 64;

/**
 * The tools/call requests of one MCP session: at most `max` run at once, later ones wait in
 * arrival order, and each running one has its own AbortController (cancellation, stop). A
 * cancelled call is aborted when running and dropped when waiting.
 */
export class CallSlots<P> {
  private readonly running = new Map<RequestId, AbortController>();
  private readonly waiting: Array<{ id: RequestId; params: P }> = [];
  /**
   * The next call's controller, made while the calls before it wait for their tools: its signal
   * costs microseconds to make, and a call needs it before it can start. Each serves one call.
   */
  private spare?: AbortController;

  constructor(
    private readonly max: number,
    /** Runs one call; it calls {@link finished} when done, whatever the outcome. */
    private readonly run: (id: RequestId, params: P, controller: AbortController) => void,
  ) {}

  add(id: RequestId, params: P): void {
    if (this.running.size < this.max) this.start(id, params);
    else this.waiting.push({ id, params });
  }

  /** A call's request is on its way: the next call's controller is made now, while its tool works. */
  dispatched(): void {
    this.spare ??= readyController();
  }

  finished(id: RequestId, controller: AbortController): void {
    if (this.running.get(id) === controller) this.running.delete(id);
    while (this.waiting.length > 0 && this.running.size < this.max) {
      const { id: next, params } = this.waiting.shift()!;
      this.start(next, params);
    }
  }

  cancel(requestId: unknown): void {
    if (!isRequestId(requestId)) return;
    this.running.get(requestId)?.abort();
    const waitingAt = this.waiting.findIndex((w) => w.id === requestId);
    if (waitingAt !== -1) this.waiting.splice(waitingAt, 1);
  }

  /** Drops the waiting calls and aborts the running ones (the session ends). */
  abortAll(): void {
    this.waiting.length = 0;
    for (const controller of this.running.values()) controller.abort();
    this.running.clear();
  }

  private start(id: RequestId, params: P): void {
    const controller = this.spare ?? new AbortController();
    this.spare = undefined;
    this.running.set(id, controller);
    this.run(id, params, controller);
  }
}

/** A controller whose signal exists: Node makes a controller's signal on first use, and that is the costly part. */
function readyController(): AbortController {
  const controller = new AbortController();
  void controller.signal;
  return controller;
}
