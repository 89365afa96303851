import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { spawnAwf } from '../support/cli';
import { processesWith } from '../support/run-watch';
import { tmuxSession } from '../support/tmux-session';
import { ttySession } from '../support/tty-session';
import { installedPackage } from '../support/launch-paths';
import { describeUnless, itUnless } from '../support/skip';
import { join } from 'node:path';
import { awf, workflowProject } from './workflow-support';

jest.setTimeout(180_000);

/** A proxied agent step: its Glob is one line of the run's audit trail. */
const TOOLS = `name: tools
description: one Glob through the proxy
states:
  initial: look
  look:
    type: agent
    provider: script
    prompt: unused
    mcp_proxy: {enable: true}
    options:
      calls: [{tool: Glob, args: {pattern: '*.md'}}]
    on_success: done
  done: {type: terminal, status: success}
`;
const hang = (marker: string) => `name: hang
description: waits until it is cancelled
states:
  initial: wait
  wait: {type: step, command: 'echo waiting; sleep 120; echo ${marker}', on_success: done}
  done: {type: terminal, status: success}
`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const parentOf = (pid: number): number =>
  Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);

const noTmux = spawnSync('tmux', ['-V']).status === 0 ? undefined : "tmux is not installed (Debian's tmux package)";

describeUnless(noTmux, 'awf tui in a real terminal (tmux)', () => {
  it('launches workflows, shows their steps and audit log, and quits with q leaving no process', async () => {
    const marker = `awf-tui-${process.pid}-${Date.now()}`;
    const p = workflowProject({
      '.awf/workflows/tools.yaml': TOOLS,
      '.awf/workflows/hang.yaml': hang(marker),
      'README.md': '# a file for the Glob\n',
    });
    const term = tmuxSession(['tui'], { cwd: p.dir, env: p.env });
    try {
      await term.until(/› hang\s+local\s+waits until it is cancelled/);
      await term.keys('j', 'Enter');
      const run = await term.until(/tools\s+success\s+run [0-9a-f-]{36}/);
      expect(run).toMatch(/✓ look\s+agent/);
      await term.keys('4');
      const log = await term.until(/look\s+Glob\s+builtin\s+[\d.]+ms\s+ok/);
      expect(log).toMatch(/Log: .*\/runs\/[0-9a-f-]{36}\s+\(1 entries\)/);
      await term.keys('3');
      await term.until(/success\s+tools\s+[0-9a-f]{8}/);
      // A run that is still going when the person quits is cancelled, with its processes.
      await term.keys('1', 'k', 'Enter');
      await term.until(/hang\s+running/);
      await term.until('waiting');
      expect(processesWith(marker).length).toBeGreaterThan(0);
      await term.keys('q');
      expect(await term.exited()).toBe(0);
      for (let i = 0; i < 50 && processesWith(marker).length; i++) await sleep(100);
      expect(processesWith(marker)).toEqual([]);
      expect(p.leftovers()).toEqual([]);
      // The cancelled run is in the history, as `awf runs` lists it.
      expect(awf(['history', '-w', 'hang'], { cwd: p.dir, env: p.env }).stdout).toMatch(/cancelled/);
    } finally {
      term.close();
      p.cleanup();
    }
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGHUP (the terminal closed)', 129],
  ])('%s stops the runs it launched and exits %d', async (signal, code) => {
    const marker = `awf-tui-signal-${process.pid}-${Date.now()}`;
    const p = workflowProject({ '.awf/workflows/hang.yaml': hang(marker) });
    const term = tmuxSession(['tui'], { cwd: p.dir, env: p.env });
    try {
      await term.until('› hang');
      await term.keys('Enter');
      await term.until('waiting');
      // The step's shell names the marker; its parent is awf.
      const [shell] = processesWith(marker);
      process.kill(parentOf(shell), signal.split(' ')[0] as NodeJS.Signals);
      expect(await term.exited()).toBe(code);
      for (let i = 0; i < 50 && processesWith(marker).length; i++) await sleep(100);
      expect(processesWith(marker)).toEqual([]);
    } finally {
      term.close();
      p.cleanup();
    }
  });

  it('Monitoring shows a run started by `awf run` in another terminal, from the history', async () => {
    const p = workflowProject({
      '.awf/workflows/gated.yaml': `name: gated
states:
  initial: first
  first: {type: step, command: 'echo one', on_success: wait}
  wait: {type: step, command: 'while [ ! -f go ]; do sleep 0.1; done', on_success: done}
  done: {type: terminal, status: success}
`,
    });
    const term = tmuxSession(['tui'], { cwd: p.dir, env: p.env });
    const other = spawnAwf(['run', 'gated'], { cwd: p.dir, env: p.env });
    const otherExit = once(other, 'exit').then(([code]) => code as number | null);
    try {
      await term.until('› gated');
      await term.keys('2');
      const running = await term.until(/✓ first\s+step/);
      expect(running).toMatch(/gated\s+running\s+run [0-9a-f-]{36}/);
      expect(running).toContain('started elsewhere, now at wait');
      writeFileSync(join(p.dir, 'go'), '');
      await term.until(/gated\s+success/);
      expect(await otherExit).toBe(0);
      await term.keys('q');
      expect(await term.exited()).toBe(0);
    } finally {
      writeFileSync(join(p.dir, 'go'), '');
      await otherExit;
      term.close();
      p.cleanup();
    }
  });

  it('ctrl+c quits from a focused text field too', async () => {
    const p = workflowProject({ '.awf/workflows/hang.yaml': hang('unused') });
    const term = tmuxSession(['tui'], { cwd: p.dir, env: p.env });
    try {
      await term.until('› hang');
      await term.keys('/');
      await term.type('q1');
      await term.until('Filter: q1');
      await term.keys('C-c');
      expect(await term.exited()).toBe(0);
    } finally {
      term.close();
      p.cleanup();
    }
  });

  const installed = installedPackage();
  itUnless(
    installed ? installed.error : 'no installed package (run through jest globalSetup)',
    'the installed package (npm pack, npm install) loads Ink and draws the tui',
    async () => {
      const p = workflowProject({ '.awf/workflows/hang.yaml': hang('unused') });
      const main = join(installed?.packageDir ?? '', 'dist/main.js');
      const term = tmuxSession(['tui'], { cwd: p.dir, env: p.env, main });
      try {
        await term.until(/› hang\s+local/);
        await term.keys('2');
        await term.until('No active execution');
        await term.keys('q');
        expect(await term.exited()).toBe(0);
      } finally {
        term.close();
        p.cleanup();
      }
    },
  );

  it('refuses TERM=dumb with a coded error (on a pseudo-terminal)', async () => {
    const p = workflowProject();
    try {
      const term = ttySession(['tui'], { cwd: p.dir, env: { ...p.env, TERM: 'dumb' } });
      await term.waitFor('[USER.TUI.NO_TERMINAL] awf tui needs an interactive terminal');
      expect(term.screen()).toContain('(TERM=dumb)');
      expect(await term.done()).toBe(1);
    } finally {
      p.cleanup();
    }
  });
});

describe('awf tui without a terminal', () => {
  it('exits 1 with USER.TUI.NO_TERMINAL and points at awf run and awf runs', () => {
    const p = workflowProject();
    try {
      const r = awf(['tui'], { cwd: p.dir, env: p.env });
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(
        '[USER.TUI.NO_TERMINAL] awf tui needs an interactive terminal: stdin is not a terminal',
      );
      expect(r.stderr).toContain('awf run <workflow>');
      expect(r.stderr).toContain('awf runs');
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    } finally {
      p.cleanup();
    }
  });
});
