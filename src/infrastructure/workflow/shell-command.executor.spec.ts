import { tmpdir } from 'node:os';
import { processesWith } from '../../../test/support/run-watch';
import { ShellCommandExecutor } from './shell-command.executor';

describe('ShellCommandExecutor', () => {
  const exec = new ShellCommandExecutor('/bin/sh');
  const base = {
    cwd: tmpdir(),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    timeoutMs: 0,
    signal: new AbortController().signal,
  };

  it('captures stdout, stderr and the exit code; a non-zero exit is a result', async () => {
    const r = await exec.run({ ...base, command: 'echo out; echo err >&2; exit 3' });
    expect(r).toEqual({ stdout: 'out\n', stderr: 'err\n', exitCode: 3, timedOut: false, cancelled: false });
  });

  it('runs in the given directory with the given environment only', async () => {
    const r = await exec.run({
      ...base,
      command: 'pwd; echo "$GREETING"; echo "${HOME:-unset}"',
      env: { ...base.env, GREETING: 'hi there' },
    });
    expect(r.stdout.split('\n').slice(0, 3)).toEqual([tmpdir(), 'hi there', 'unset']);
  });

  it('on timeout stops the whole process group, grandchildren included', async () => {
    const marker = `awf-timeout-${process.pid}-${Date.now()}`;
    const r = await exec.run({
      ...base,
      timeoutMs: 300,
      command: `sh -c 'sleep 30; echo ${marker}' & sleep 30; echo ${marker}`,
    });
    expect(r).toMatchObject({ timedOut: true, cancelled: false, exitCode: -1 });
    expect(processesWith(marker)).toEqual([]);
  });

  it('on abort stops the group and reports cancelled', async () => {
    const controller = new AbortController();
    const marker = `awf-abort-${process.pid}-${Date.now()}`;
    setTimeout(() => controller.abort(), 200);
    const r = await exec.run({ ...base, signal: controller.signal, command: `sleep 30; echo ${marker}` });
    expect(r).toMatchObject({ cancelled: true, exitCode: -1 });
    expect(processesWith(marker)).toEqual([]);
  });

  it('escalates to SIGKILL for a command that ignores SIGTERM', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const r = await exec.run({
      ...base,
      signal: controller.signal,
      command: "trap '' TERM; while true; do sleep 0.1; done",
    });
    expect(r.cancelled).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(5000);
  }, 20_000);

  it('does not wait for background processes that keep the pipes open', async () => {
    const r = await exec.run({ ...base, command: 'sleep 30 & echo started' });
    expect(r).toMatchObject({ stdout: 'started\n', exitCode: 0 });
  });
});
