import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawnAwf } from '../support/cli';
import { processesWith, SLOW_EXTENSION, workflowProject } from './workflow-support';

async function waitFor(file: string, timeoutMs = 90_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > until) throw new Error(`${file} never appeared`);
    await sleep(50);
  }
}

// Generous bounds: the machine is shared and an mcp-serve start can take seconds under load.
jest.setTimeout(120_000);

describe('Ctrl-C during awf run', () => {
  it('stops a command step and its children, runs cleanup, exits 130', async () => {
    const marker = `awf-cancel-${process.pid}-${Date.now()}`;
    const p = workflowProject({
      'wf.yaml': `name: cancel
states:
  initial: work
  work:
    type: step
    command: 'touch started; sh -c "sleep 120 # ${marker}" & sleep 120 # ${marker}'
    on_success: after
  after: {type: step, command: 'touch after', on_success: done}
  done: {type: terminal}
`,
    });
    try {
      const child = spawnAwf(['run', 'wf.yaml'], { cwd: p.dir, env: p.env });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      await waitFor(join(p.dir, 'started'));
      expect(processesWith(marker).length).toBeGreaterThan(0);
      child.kill('SIGINT');
      const [code] = await once(child, 'exit');
      expect(code).toBe(130);
      expect(stderr).toMatch(/^■ work {2}cancelled/m);
      expect(existsSync(join(p.dir, 'after'))).toBe(false);
      expect(processesWith(marker)).toEqual([]);
      expect(p.leftovers()).toEqual([]);
    } finally {
      p.cleanup();
    }
  });

  it('stops an agent step mid tool call: no mcp-serve, no proxy config left, exit 130', async () => {
    const p = workflowProject(
      {
        'wf.yaml': `name: cancel-agent
states:
  initial: agent
  agent:
    type: agent
    provider: script
    prompt: wait
    mcp_proxy: {enable: true}
    options:
      calls:
        - tool: wait_forever
          args: {started_file: '{{.env.STARTED_FILE}}'}
    on_success: done
  done: {type: terminal}
`,
      },
      [SLOW_EXTENSION],
    );
    try {
      const started = join(p.dir, 'started');
      const child = spawnAwf(['run', 'wf.yaml'], { cwd: p.dir, env: { ...p.env, STARTED_FILE: started } });
      await waitFor(started);
      // The proxy config lives in the run's TMPDIR, so every mcp-serve of this run names it.
      expect(processesWith(p.tmp).length).toBeGreaterThan(0);
      expect(p.leftovers()).toHaveLength(1);
      child.kill('SIGINT');
      const [code] = await once(child, 'exit');
      expect(code).toBe(130);
      expect(processesWith(p.tmp)).toEqual([]);
      expect(p.leftovers()).toEqual([]);
    } finally {
      p.cleanup();
    }
  });
});
