import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnAwf } from '../../../../test/support/cli';
import { KEY, tuiHarness } from '../../../../test/support/tui-harness';

jest.setTimeout(60_000);

/** Waits in its second step until the test creates `go` in the working directory. */
const GATED = `name: gated
inputs:
  - {name: token, secret: true, default: hunter2-tui-secret}
states:
  initial: prepare
  prepare: {type: step, command: 'echo prepared with {{.inputs.token}}', on_success: wait}
  wait: {type: step, command: 'while [ ! -f go ]; do sleep 0.1; done; echo released', on_success: finish}
  finish: {type: step, command: 'echo finished', on_success: done}
  done: {type: terminal, status: success}
`;
const FAILS = `name: fails
states:
  initial: boom
  boom: {type: step, command: 'sleep 1; echo about to fail; exit 3', on_success: done}
  done: {type: terminal, status: success}
`;
const HELLO = `name: hello
states:
  initial: greet
  greet: {type: step, command: 'echo hello from the tui', on_success: done}
  done: {type: terminal, status: success}
`;

describe('awf tui Monitoring: runs started elsewhere (an `awf run` in another terminal), from the history', () => {
  const tui = tuiHarness({ gated: GATED, fails: FAILS, hello: HELLO });
  const children: ChildProcess[] = [];
  const awfRun = (name: string) => {
    const child = spawnAwf(['run', name], { cwd: tui.dir });
    children.push(child);
    return once(child, 'exit').then(([code]) => code as number);
  };
  // A test that failed half-way leaves no run waiting: released, then stopped as Ctrl-C stops it.
  afterEach(async () => {
    writeFileSync(join(tui.dir, 'go'), '');
    for (const child of children.splice(0))
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT');
        await once(child, 'exit');
      }
    rmSync(join(tui.dir, 'go'), { force: true });
  });

  it('shows such a run as it goes, step by step, to its end; none of its output (nor its secret) is drawn', async () => {
    const t = await tui.draw();
    await t.until('hello');
    await t.press('2');
    await t.until('runs started elsewhere show here');
    const exit = awfRun('gated');
    const first = await t.until(/✓ prepare\s+step/);
    expect(first).toMatch(/gated\s+running\s+run [0-9a-f-]{36}/);
    expect(first).toContain('started elsewhere, now at wait');
    // The history keeps the output as the run saw it, its secret unmasked: none of it is drawn.
    expect(first).not.toContain('prepared with');
    writeFileSync(join(tui.dir, 'go'), '');
    const done = await t.until(/gated\s+success/);
    expect(done).toMatch(/✓ wait\s+step/);
    expect(done).toMatch(/✓ finish\s+step/);
    expect(done).not.toContain('hunter2');
    expect(await exit).toBe(0);
  });

  it('a run found elsewhere takes the place of an ended one; n steps through every run shown', async () => {
    const t = await tui.draw();
    await t.until('hello');
    await t.filter('hel');
    await t.press(KEY.enter);
    await t.until(/hello\s+success/);
    const exit = awfRun('fails');
    // The tui's own run has ended: the run found elsewhere takes its place.
    const failed = await t.until(/fails\s+failure/);
    expect(failed).toMatch(/✗ boom\s+step/);
    expect(await exit).toBe(3);
    // n steps through every run shown (this tui's runs too), the first after the last.
    const seen = new Set<string>();
    for (let i = 0; i < 4 && !seen.has('hello'); i++) {
      await t.press('n');
      await new Promise((r) => setTimeout(r, 100));
      seen.add(/^(\w+)\s+(success|failure)/m.exec(t.screen().split('\n')[1])?.[1] ?? '?');
    }
    expect(seen).toContain('hello');
    await t.until(/hello\s+success/);
  });
});
