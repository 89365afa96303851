import { flowHarness, processesWith, statuses } from './flow-harness';

jest.setTimeout(120_000);

/** Waits (up to 60 s, never a timing assertion) until each named file exists. */
const waitFiles = (...names: string[]) =>
  `for i in $(seq 1 600); do ${names.map((n) => `[ -e ${n} ]`).join(' && ')} && break; sleep 0.1; done`;

describe('type: parallel', () => {
  const h = flowHarness();

  it('all_succeed runs the branches at once, and later steps read every branch output', async () => {
    const report = await h.run(`
name: fan-out
states:
  initial: fan
  fan:
    type: parallel
    parallel: [a, b, c]
    on_success: join
  a: {type: step, command: 'touch a.up; ${waitFiles('a.up', 'b.up', 'c.up')}; echo A'}
  b: {type: step, command: 'touch b.up; ${waitFiles('a.up', 'b.up', 'c.up')}; echo B'}
  c: {type: step, command: 'touch c.up; ${waitFiles('a.up', 'b.up', 'c.up')}; echo C'}
  join: {type: step, command: 'echo "{{trimSpace .states.a.Output}}{{trimSpace .states.b.Output}}{{trimSpace .states.c.Output}}"', on_success: done}
  done: {type: terminal, message: '{{.states.join.Output}} {{.states.fan.Response.b.Status}}'}
`);
    expect(report).toMatchObject({ status: 'success', output: 'ABC\n success' });
    expect(statuses(report)).toEqual(['a:success', 'b:success', 'c:success', 'fan:success', 'join:success']);
    // Every branch saw the other two start: they ran concurrently.
    expect(report.steps.find((s) => s.name === 'fan')).toMatchObject({ type: 'parallel', output: 'A\nB\nC\n' });
  });

  it('max_concurrent: 1 runs one branch at a time, in the listed order', async () => {
    const report = await h.run(`
name: one-at-a-time
states:
  initial: fan
  fan: {type: parallel, parallel: [a, b, c], max_concurrent: 1, on_success: done}
  a: {type: step, command: 'touch a.done'}
  b: {type: step, command: 'test -e a.done && test ! -e c.done && touch b.done'}
  c: {type: step, command: 'test -e b.done && touch c.done'}
  done: {type: terminal}
`);
    expect(report.status).toBe('success');
    expect(h.lines.filter((l) => l.startsWith('start'))).toEqual(['start fan', 'start a', 'start b', 'start c']);
  });

  it('all_succeed stops the other branches at the first failure and follows on_failure', async () => {
    const marker = `awf-par-${process.pid}-${Date.now()}`;
    const report = await h.run(`
name: fail-fast
states:
  initial: fan
  fan: {type: parallel, parallel: [slow, bad], strategy: all_succeed, on_success: done, on_failure: failed}
  slow: {type: step, command: 'touch slow.up; sleep 60 # ${marker}'}
  bad: {type: step, command: '${waitFiles('slow.up')}; echo broke >&2; exit 3'}
  done: {type: terminal}
  failed: {type: terminal, status: failure, message: 'fan failed: {{.states.bad.ExitCode}} {{.states.slow.Status}}'}
`);
    expect(statuses(report)).toEqual(['bad:failure', 'fan:failure', 'slow:cancelled']);
    expect(report).toMatchObject({
      status: 'failure',
      terminal: 'failed',
      error: { message: 'fan failed: 3 cancelled' },
    });
    expect(report.steps.find((s) => s.name === 'fan')?.error).toMatchObject({
      code: 'EXECUTION.PARALLEL.FAILED',
      message: expect.stringContaining('branch "bad" failed'),
    });
    expect(processesWith(marker)).toEqual([]);
  });

  it('any_succeed takes the first success and stops the losers', async () => {
    const marker = `awf-any-${process.pid}-${Date.now()}`;
    const report = await h.run(`
name: race
states:
  initial: fan
  fan: {type: parallel, parallel: [slow, quick], strategy: any_succeed, on_success: done}
  slow: {type: step, command: 'touch slow.up; sleep 60 # ${marker}'}
  quick: {type: step, command: '${waitFiles('slow.up')}; echo won'}
  done: {type: terminal, message: '{{.states.quick.Output}}'}
`);
    expect(report).toMatchObject({ status: 'success', output: 'won\n' });
    expect(statuses(report)).toEqual(['fan:success', 'quick:success', 'slow:cancelled']);
    expect(processesWith(marker)).toEqual([]);
  });

  it('any_succeed fails when every branch fails, naming the first failure', async () => {
    const report = await h.run(`
name: all-lose
states:
  initial: fan
  fan: {type: parallel, parallel: [a, b], strategy: any_succeed, on_success: done}
  a: {type: step, command: 'exit 1'}
  b: {type: step, command: 'exit 2'}
  done: {type: terminal}
`);
    expect(report).toMatchObject({
      status: 'failure',
      error: {
        code: 'EXECUTION.PARALLEL.FAILED',
        message: expect.stringContaining('none of its 2 branches succeeded'),
      },
    });
  });

  it('best_effort runs every branch and succeeds, with each outcome readable', async () => {
    const report = await h.run(`
name: best
states:
  initial: fan
  fan: {type: parallel, parallel: [a, b], strategy: best_effort, max_concurrent: 2, on_success: done, on_failure: failed}
  a: {type: step, command: 'exit 5'}
  b: {type: step, command: 'echo fine'}
  done: {type: terminal, message: 'a={{.states.a.ExitCode}} b={{.states.fan.Response.b.Output}}'}
  failed: {type: terminal, status: failure}
`);
    expect(report).toMatchObject({ status: 'success', terminal: 'done', output: 'a=5 b=fine\n' });
  });

  it('a cancelled run stops every running branch and ends cancelled', async () => {
    const marker = `awf-cancel-par-${process.pid}-${Date.now()}`;
    const abort = new AbortController();
    const running = h.run(
      `
name: cancel-par
states:
  initial: fan
  fan: {type: parallel, parallel: [a, b], on_success: done}
  a: {type: step, command: 'touch a.up; sleep 60 # ${marker}'}
  b: {type: step, command: 'touch b.up; sleep 60 # ${marker}'}
  done: {type: terminal}
`,
      { signal: abort.signal },
    );
    while (!(h.files().includes('a.up') && h.files().includes('b.up'))) await new Promise((r) => setTimeout(r, 50));
    abort.abort();
    const report = await running;
    expect(report.status).toBe('cancelled');
    expect(statuses(report)).toEqual(['a:cancelled', 'b:cancelled', 'fan:cancelled']);
    expect(processesWith(marker)).toEqual([]);
  });
});
