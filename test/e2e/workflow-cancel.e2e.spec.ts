import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnAwf } from '../support/cli';
import { processesWith, runLeftovers, waitForFiles } from '../support/run-watch';
import { SLOW_EXTENSION, workflowProject } from './workflow-support';

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
      await waitForFiles([join(p.dir, 'started')]);
      expect(processesWith(marker).length).toBeGreaterThan(0);
      child.kill('SIGINT');
      const [code] = await once(child, 'exit');
      expect(code).toBe(130);
      expect(stderr).toMatch(/^■ work {2}cancelled/m);
      expect(existsSync(join(p.dir, 'after'))).toBe(false);
      expect(runLeftovers(p, marker)).toEqual({ processes: [], tempFiles: [] });
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
      await waitForFiles([started]);
      // The proxy config lives in the run's TMPDIR, so every mcp-serve of this run names it.
      expect(processesWith(p.tmp).length).toBeGreaterThan(0);
      expect(p.leftovers()).toHaveLength(1);
      child.kill('SIGINT');
      const [code] = await once(child, 'exit');
      expect(code).toBe(130);
      expect(runLeftovers(p)).toEqual({ processes: [], tempFiles: [] });
    } finally {
      p.cleanup();
    }
  });
});
