// Worker entry of the JS Grep engine: one search per worker, terminated on timeout.
import { parentPort, workerData } from 'node:worker_threads';
import type { GrepRequest } from './grep-query.model';
import { GrepPatternError, searchFiles } from './js-grep.search';

try {
  parentPort?.postMessage({ ok: true, outcome: searchFiles(workerData as GrepRequest) });
} catch (err) {
  parentPort?.postMessage({
    ok: false,
    pattern: err instanceof GrepPatternError,
    message: err instanceof Error ? err.message : String(err),
  });
}
