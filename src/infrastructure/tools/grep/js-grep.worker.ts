// Worker entry of the JS Grep engine: kept by the pool (grep-workers.pool.ts) and given one
// search at a time; terminated on timeout or cancel, the only way to stop a backtracking regex.
import { parentPort } from 'node:worker_threads';
import type { GrepRequest } from './grep-query.model';
import { GrepPatternError, searchFiles } from './js-grep.search';

parentPort?.on('message', (request: GrepRequest) => {
  try {
    parentPort?.postMessage({ ok: true, outcome: searchFiles(request) });
  } catch (err) {
    parentPort?.postMessage({
      ok: false,
      pattern: err instanceof GrepPatternError,
      message: err instanceof Error ? err.message : String(err),
    });
  }
});
