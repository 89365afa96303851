import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ToolFailure } from '../tool-failure.error';
import type { GrepEngine, GrepOutcome, GrepRequest } from './grep-query.model';
import { GrepWorkers } from './grep-workers.pool';

/**
 * The process's search workers (2 to 4, by cores): a machine has only so many cores to run them
 * on, and each costs an isolate. Made on the first search, not at start-up.
 */
const pools = new Map<string, GrepWorkers>();
function workersFor(file: string): GrepWorkers {
  let pool = pools.get(file);
  if (!pool) {
    const { availableParallelism } = require('node:os') as typeof import('node:os');
    pool = new GrepWorkers(file, Math.max(2, Math.min(4, availableParallelism())));
    pools.set(file, pool);
  }
  return pool;
}

/**
 * Runs the JS search in a worker thread so a regex that backtracks forever costs one
 * terminated worker, not a frozen proxy. From TypeScript sources (unit tests) there is no
 * compiled worker file, and the search runs inline without that guard.
 */
export class JsGrepEngine implements GrepEngine {
  readonly name = 'js' as const;

  constructor(private readonly workerFile = join(__dirname, 'js-grep.worker.js')) {}

  search(request: GrepRequest, signal: AbortSignal, timeoutMs: number): Promise<GrepOutcome> {
    if (!existsSync(this.workerFile)) return Promise.resolve().then(() => inline(request));
    return workersFor(this.workerFile).search(request, signal, timeoutMs);
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
