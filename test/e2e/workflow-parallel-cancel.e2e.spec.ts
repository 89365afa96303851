import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnAwf } from '../support/cli';
import { processesWith, runLeftovers, waitForFiles } from '../support/run-watch';
import { SLOW_EXTENSION, workflowProject } from './workflow-support';

jest.setTimeout(120_000);

describe('Ctrl-C in the middle of a parallel step', () => {
  it('stops the command branch and the agent branch with its own mcp-serve: no process, no temp file, exit 130', async () => {
    const marker = `awf-par-cancel-${process.pid}-${Date.now()}`;
    const p = workflowProject(
      {
        'wf.yaml': `name: par-cancel
hooks:
  workflow_cancel: [{command: 'touch cancel-hook-ran'}]
states:
  initial: fan
  fan: {type: parallel, parallel: [shell, agent], on_success: done}
  shell: {type: step, command: 'touch shell-up; sleep 120; echo ${marker}'}
  agent:
    type: agent
    provider: script
    prompt: wait
    mcp_proxy: {enable: true}
    options:
      calls:
        - tool: wait_forever
          args: {started_file: '{{.env.STARTED_FILE}}'}
  done: {type: terminal}
`,
      },
      [SLOW_EXTENSION],
    );
    let child: ReturnType<typeof spawnAwf> | undefined;
    try {
      const started = join(p.dir, 'agent-up');
      child = spawnAwf(['run', 'wf.yaml'], { cwd: p.dir, env: { ...p.env, STARTED_FILE: started } });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      await waitForFiles([started, join(p.dir, 'shell-up')]);
      expect(processesWith(marker).length).toBeGreaterThan(0);
      expect(processesWith(p.tmp).length).toBeGreaterThan(0);
      child.kill('SIGINT');
      const [code] = await once(child, 'exit');
      expect(code).toBe(130);
      expect(stderr).toMatch(/^■ shell {2}cancelled/m);
      expect(stderr).toMatch(/^■ agent {2}cancelled/m);
      expect(stderr).toMatch(/^■ fan {2}cancelled/m);
      expect(existsSync(join(p.dir, 'cancel-hook-ran'))).toBe(true);
      expect(runLeftovers(p, marker)).toEqual({ processes: [], tempFiles: [] });
    } finally {
      if (child && child.exitCode === null) child.kill('SIGKILL');
      p.cleanup();
    }
  });
});
