import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RunJob } from '../../domain/ports/run-queue.port';

/** The job's files in the run's (or child job's) own directory, private to the worker's user. */
export function writeRunFiles(dir: string, run: RunJob): void {
  for (const file of run.files) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, file.path), file.text, { mode: 0o600 });
  }
}
