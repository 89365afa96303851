import type { Worker as WorkerType } from 'node:worker_threads';
import { ToolFailure } from '../tool-failure.error';
import type { GrepOutcome, GrepRequest } from './grep-query.model';
import { WorkerSlots } from './worker-slots.pool';

/** What the worker answers for one search (js-grep.worker.ts). */
export interface WorkerReply {
  ok: boolean;
  outcome?: GrepOutcome;
  pattern?: boolean;
  message?: string;
}

class PatternFailure extends ToolFailure {}

/** An idle worker is ended after this long without a search, so a quiet proxy gives its isolates back. */
const IDLE_MS = 60_000;

interface Kept {
  worker: WorkerType;
  idle?: NodeJS.Timeout;
}

/**
 * At most `size` search workers, kept and reused: a worker thread is a V8 isolate (about 10 MiB)
 * plus an event loop of its own (four descriptors), and starting one per search made a burst of
 * Greps cost a burst of isolates and a stream of descriptors opened and closed. A worker is
 * ended only when its search times out or is cancelled (terminating it is the one way to stop a
 * backtracking regex), when it fails, or after a minute idle; the next search starts a new one.
 * Workers are unref'd: an idle one never keeps `mcp-serve` alive.
 */
export class GrepWorkers {
  private readonly slots: WorkerSlots;
  private readonly idle: Kept[] = [];

  constructor(
    private readonly workerFile: string,
    readonly size: number,
  ) {
    this.slots = new WorkerSlots(size);
  }

  /** Live workers, busy or idle: what the pool holds now. */
  get live(): number {
    return this.slots.busyCount + this.idle.length;
  }

  async search(request: GrepRequest, signal: AbortSignal, timeoutMs: number): Promise<GrepOutcome> {
    // The limit is the search's own; waiting for a slot is bounded by cancellation (the client's
    // own timeout cancels the call), so a burst of Greps is served late rather than refused.
    const release = await this.slots.acquire(signal);
    const kept = this.idle.pop() ?? this.start();
    clearTimeout(kept.idle);
    let reusable = false;
    try {
      const outcome = await this.run(kept.worker, request, signal, timeoutMs);
      reusable = true;
      return outcome;
    } catch (err) {
      // A pattern JavaScript cannot compile leaves the worker as it was; anything else ends it.
      reusable = err instanceof PatternFailure;
      throw err;
    } finally {
      if (reusable) this.keep(kept);
      else void kept.worker.terminate();
      release();
    }
  }

  private start(): Kept {
    const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
    const worker = new Worker(this.workerFile);
    worker.unref();
    return { worker };
  }

  private keep(kept: Kept): void {
    kept.idle = setTimeout(() => {
      const at = this.idle.indexOf(kept);
      if (at !== -1) this.idle.splice(at, 1);
      void kept.worker.terminate();
    }, IDLE_MS);
    kept.idle.unref();
    this.idle.push(kept);
  }

  /** One search on `worker`; the caller decides whether the worker is kept. */
  private run(worker: WorkerType, request: GrepRequest, signal: AbortSignal, timeoutMs: number): Promise<GrepOutcome> {
    return new Promise<GrepOutcome>((resolve, reject) => {
      const settle = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      const stop = (failure: ToolFailure): void => {
        settle();
        reject(failure);
      };
      const timer = setTimeout(
        () =>
          stop(
            new ToolFailure(
              `Grep: the search took longer than ${timeoutMs} ms and was stopped; narrow the path or simplify the pattern, or install ripgrep (rg), whose regex engine cannot backtrack`,
            ),
          ),
        timeoutMs,
      );
      const onAbort = (): void => stop(new ToolFailure('Grep: cancelled'));
      const onMessage = (reply: WorkerReply): void => {
        settle();
        if (reply.ok && reply.outcome) return resolve(reply.outcome);
        reject(
          reply.pattern
            ? new PatternFailure(`Grep: invalid regular expression: ${reply.message}`)
            : new ToolFailure(`Grep: search failed: ${reply.message}`),
        );
      };
      const onError = (err: Error): void => stop(new ToolFailure(`Grep: search failed: ${err.message}`));
      const onExit = (code: number): void => stop(new ToolFailure(`Grep: search failed: its worker exited (${code})`));
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      worker.postMessage(request);
    });
  }
}
