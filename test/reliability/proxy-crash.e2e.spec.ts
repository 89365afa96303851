import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnAwf } from '../support/cli';
import { SLOW_EXTENSION, workflowProject } from '../e2e/workflow-support';
import { processesWith, runLeftovers, waitForFiles } from '../support/run-watch';

jest.setTimeout(120_000);

/** Item 2 of the reliability issue: the proxy dies under a script-agent step. */
describe('kill -9 of mcp-serve in the middle of a script-agent step', () => {
  it('fails the step with EXECUTION.MCP_PROXY.DIED, follows on_failure, leaves no temp file or process', async () => {
    const p = workflowProject(
      {
        'wf.yaml': `name: proxy-crash
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
    on_failure: recover
  recover: {type: step, command: 'touch recovered', on_success: failed}
  failed: {type: terminal, status: failure}
  done: {type: terminal}
`,
      },
      [SLOW_EXTENSION],
    );
    try {
      const started = join(p.dir, 'started');
      const child = spawnAwf(['run', 'wf.yaml'], { cwd: p.dir, env: { ...p.env, STARTED_FILE: started } });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      await waitForFiles([started]);
      const serves = processesWith(p.tmp);
      expect(serves.length).toBeGreaterThan(0);
      for (const pid of serves) process.kill(pid, 'SIGKILL');
      const [code] = await once(child, 'exit');
      expect(stderr).toMatch(/EXECUTION\.[A-Z_]+\.[A-Z_]+/);
      expect(stderr).toContain(
        "[EXECUTION.MCP_PROXY.DIED] the step's MCP proxy (awf mcp-serve) exited during the call to",
      );
      expect(stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
      expect(existsSync(join(p.dir, 'recovered'))).toBe(true);
      expect([0, 2, 3]).toContain(code);
      expect(runLeftovers(p)).toEqual({ processes: [], tempFiles: [] });
    } finally {
      p.cleanup();
    }
  });
});
