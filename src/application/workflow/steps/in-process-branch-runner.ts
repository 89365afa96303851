import type { BranchBatch, BranchResult, BranchRunner } from '../../../domain/workflow/ports/branch-runner.port';

/**
 * The tasks in this process: `width` lanes take the next task until none is left. Once
 * `stopAfter` says so (or the run is stopped) no task starts, and the running ones see the
 * shared signal abort, so a losing branch's process group ends as on Ctrl-C.
 */
export class InProcessBranchRunner implements BranchRunner {
  readonly where = undefined;

  async run(batch: BranchBatch): Promise<(BranchResult | undefined)[]> {
    const stop = new AbortController();
    const signal = AbortSignal.any([batch.signal, stop.signal]);
    const results: (BranchResult | undefined)[] = batch.tasks.map(() => undefined);
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < batch.tasks.length) {
        const index = next++;
        if (signal.aborted) continue;
        const result = await batch.runHere(batch.tasks[index], signal);
        results[index] = result;
        if (batch.stopAfter(result, index)) stop.abort();
      }
    };
    const width = batch.width > 0 ? Math.min(batch.width, batch.tasks.length) : batch.tasks.length;
    await Promise.all(Array.from({ length: width }, lane));
    return results;
  }
}

export const IN_PROCESS_BRANCHES = new InProcessBranchRunner();
