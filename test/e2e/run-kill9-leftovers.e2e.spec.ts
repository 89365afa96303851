import { once } from 'node:events';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTime } from '../../src/infrastructure/core/process-tree';
import { spawnAwf } from '../support/cli';
import { processesWith, waitForFiles } from '../support/run-watch';
import { awf, workflowProject } from './workflow-support';

jest.setTimeout(180_000);

/** One proxied step: a Glob, then a Bash that hangs until the file `go` exists. */
const workflow = (marker: string) => `name: killed
states:
  initial: work
  work:
    type: agent
    provider: script
    prompt: unused
    mcp_proxy: {enable: true, intercept_builtins: true}
    options:
      calls:
        - tool: Glob
          args: {pattern: '*.yaml'}
        - tool: Bash
          args: {command: "touch started; test -f go || sleep 120 # ${marker}"}
    on_success: done
  done: {type: terminal}
`;

const proxyDirs = (tmp: string) => readdirSync(tmp).filter((n) => n.startsWith('awf-proxy-'));

describe('after kill -9 of awf run', () => {
  it("the next run removes the killed run's proxy dirs, and the resumed step counts only its own calls", async () => {
    const marker = `awf-leftover-${process.pid}-${Date.now()}`;
    const p = workflowProject({ 'wf.yaml': workflow(marker) });
    const live = join(p.tmp, 'awf-proxy-live');
    try {
      const child = spawnAwf(['run', 'wf.yaml'], { cwd: p.dir, env: p.env });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      await waitForFiles([join(p.dir, 'started')]);
      child.kill('SIGKILL');
      await once(child, 'exit');
      for (const pid of processesWith(marker)) process.kill(pid, 'SIGKILL');
      const left = proxyDirs(p.tmp);
      expect(left).toHaveLength(1);
      // A directory of a process that still runs (this one, as it started) is never taken.
      mkdirSync(live);
      writeFileSync(join(live, 'owner.json'), JSON.stringify({ pid: process.pid, start: startTime(process.pid) }));

      const id = /Workflow ID: (\S+)/.exec(stderr)![1];
      writeFileSync(join(p.dir, 'go'), '');
      const resumed = awf(['resume', id], { cwd: p.dir, env: p.env });
      expect(resumed.status).toBe(0);
      expect(proxyDirs(p.tmp)).toEqual(['awf-proxy-live']);
      const status = JSON.parse(awf(['status', id, '-f', 'json'], { cwd: p.dir, env: p.env }).stdout);
      expect(status.step_records.map((s: { name: string; tool_calls: number }) => [s.name, s.tool_calls])).toEqual([
        ['work', 2],
      ]);
      const shown = awf(['runs', 'show', id], { cwd: p.dir, env: p.env }).stdout;
      expect(shown).toContain('step work: 2 tool calls');
    } finally {
      for (const pid of processesWith(marker)) process.kill(pid, 'SIGKILL');
      p.cleanup();
    }
  });
});
