import type { BranchBatch, BranchResult, BranchTask } from '../../../domain/workflow/ports/branch-runner.port';
import { InProcessBranchRunner } from './in-process-branch-runner';

const ok = (status: BranchResult['status'] = 'success'): BranchResult => ({
  status,
  state: { Output: '', Stderr: '', ExitCode: status === 'success' ? 0 : 1, Status: status },
  states: {},
  reports: [],
  tool_calls: 0,
});

const tasks = (n: number): BranchTask[] => Array.from({ length: n }, (_, i) => ({ kind: 'branch', branch: `b${i}` }));

function batch(over: Partial<BranchBatch>): BranchBatch {
  return {
    step: 'p',
    tasks: tasks(5),
    width: 0,
    signal: new AbortController().signal,
    states: {},
    runHere: async () => ok(),
    stopAfter: () => false,
    ...over,
  };
}

describe('InProcessBranchRunner (the default BranchRunner: tasks in this process)', () => {
  it('runs at most `width` tasks at once and gives the results by task index', async () => {
    let running = 0;
    let most = 0;
    const results = await new InProcessBranchRunner().run(
      batch({
        width: 2,
        runHere: async (task) => {
          most = Math.max(most, ++running);
          await new Promise((r) => setTimeout(r, task.kind === 'branch' && task.branch === 'b0' ? 30 : 5));
          running--;
          return { ...ok(), state: { ...ok().state, Output: task.kind === 'branch' ? task.branch : '' } };
        },
      }),
    );
    expect(most).toBe(2);
    expect(results.map((r) => r?.state.Output)).toEqual(['b0', 'b1', 'b2', 'b3', 'b4']);
  });

  it('width 0 starts every task at once', async () => {
    let running = 0;
    let most = 0;
    const runHere = async (): Promise<BranchResult> => {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      return ok();
    };
    await new InProcessBranchRunner().run(batch({ runHere }));
    expect(most).toBe(5);
  });

  it('once stopAfter says so, starts no other task and aborts the running ones; unstarted ones are undefined', async () => {
    const aborted: string[] = [];
    const results = await new InProcessBranchRunner().run(
      batch({
        width: 2,
        runHere: async (task, signal) => {
          const name = task.kind === 'branch' ? task.branch : '';
          if (name === 'b0') return ok('failure');
          await new Promise((r) => setTimeout(r, 20));
          if (signal.aborted) aborted.push(name);
          return ok(signal.aborted ? 'cancelled' : 'success');
        },
        stopAfter: (r) => r.status === 'failure',
      }),
    );
    expect(results.map((r) => r?.status)).toEqual(['failure', 'cancelled', undefined, undefined, undefined]);
    expect(aborted).toEqual(['b1']);
  });

  it("the run's own signal stops it as stopAfter does", async () => {
    const run = new AbortController();
    run.abort();
    const results = await new InProcessBranchRunner().run(batch({ signal: run.signal }));
    expect(results.every((r) => r === undefined)).toBe(true);
  });
});
