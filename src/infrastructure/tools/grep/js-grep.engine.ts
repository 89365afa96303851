import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker as WorkerType } from 'node:worker_threads';
import { ToolFailure } from '../tool-failure.error';
import type { GrepEngine, GrepOutcome, GrepRequest } from './grep-query.model';
import { WorkerSlots } from './worker-slots.pool';

/**
 * Search workers at once, per process (2 to 4, by cores): a worker thread is a V8 isolate (about
 * 10 MiB) plus the file it holds, and a machine has only so many cores to run them on anyway.
 * Made on the first search: node:os is not loaded at start-up (nor while the snapshot is built).
 */
let slots: WorkerSlots | undefined;
function workerSlots(): WorkerSlots {
  const { availableParallelism } = require('node:os') as typeof import('node:os');
  slots ??= new WorkerSlots(Math.max(2, Math.min(4, availableParallelism())));
  return slots;
}

interface WorkerReply {
  ok: boolean;
  outcome?: GrepOutcome;
  pattern?: boolean;
  message?: string;
}

/**
 * Runs the JS search in a worker thread so a regex that backtracks forever costs one
 * terminated worker, not a frozen proxy. From TypeScript sources (unit tests) there is no
 * compiled worker file, and the search runs inline without that guard.
 */
export class JsGrepEngine implements GrepEngine {
  readonly name = 'js' as const;

  constructor(private readonly workerFile = join(__dirname, 'js-grep.worker.js')) {}

  async search(request: GrepRequest, signal: AbortSignal, timeoutMs: number): Promise<GrepOutcome> {
    if (!existsSync(this.workerFile)) return inline(request);
    // The limit is the search's own; waiting for a slot is bounded by cancellation (the client's
    // own timeout cancels the call), so a burst of Greps is served late rather than refused.
    const release = await workerSlots().acquire(signal);
    try {
      return await this.inWorker(request, signal, timeoutMs, timeoutMs);
    } finally {
      release();
    }
  }

  private inWorker(
    request: GrepRequest,
    signal: AbortSignal,
    remainingMs: number,
    timeoutMs: number,
  ): Promise<GrepOutcome> {
    const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
    const worker: WorkerType = new Worker(this.workerFile, { workerData: request });
    return new Promise<GrepOutcome>((resolve, reject) => {
      const stop = (failure: ToolFailure): void => {
        void worker.terminate();
        reject(failure);
      };
      const timer = setTimeout(
        () =>
          stop(
            new ToolFailure(
              `Grep: the search took longer than ${timeoutMs} ms and was stopped; narrow the path or simplify the pattern, or install ripgrep (rg), whose regex engine cannot backtrack`,
            ),
          ),
        remainingMs,
      );
      const onAbort = (): void => stop(new ToolFailure('Grep: cancelled'));
      signal.addEventListener('abort', onAbort, { once: true });
      const settle = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      worker.once('message', (reply: WorkerReply) => {
        settle();
        void worker.terminate();
        if (reply.ok && reply.outcome) resolve(reply.outcome);
        else
          reject(
            new ToolFailure(
              reply.pattern
                ? `Grep: invalid regular expression: ${reply.message}`
                : `Grep: search failed: ${reply.message}`,
            ),
          );
      });
      worker.once('error', (err) => {
        settle();
        reject(new ToolFailure(`Grep: search failed: ${err.message}`));
      });
    });
  }
}

function inline(request: GrepRequest): GrepOutcome {
  const { GrepPatternError, searchFiles } = require('./js-grep.search') as typeof import('./js-grep.search');
  try {
    return searchFiles(request);
  } catch (err) {
    if (err instanceof GrepPatternError) throw new ToolFailure(`Grep: invalid regular expression: ${err.message}`);
    throw err;
  }
}
