import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { probeLines, SERVE_LAUNCH_PROBE } from '../support/serve-probe';
import { awf, workflowProject } from './workflow-support';

jest.setTimeout(120_000);

const WORKFLOW = `name: plain-launch
states:
  initial: probe
  probe:
    type: agent
    provider: script
    prompt: probe
    mcp_proxy: {enable: true}
    options:
      calls:
        - tool: Bash
          args: {command: ${JSON.stringify(SERVE_LAUNCH_PROBE)}}
    on_success: done
  done: {type: terminal}
`;

/** ADR 120: what an agent is handed is `node [flags] main.js mcp-serve --config=…`, nothing around it. */
describe('the command awf run hands an agent', () => {
  it('is the node that runs awf with main.js mcp-serve, the caller’s NODE_EXTRA_CA_CERTS left as it is', () => {
    const p = workflowProject({ 'wf.yaml': WORKFLOW });
    try {
      const certs = join(p.dir, 'extra-ca.pem');
      writeFileSync(certs, `${rootCertificates[0]}\n`);
      const r = awf(['run', 'wf.yaml'], { cwd: p.dir, env: { ...p.env, NODE_EXTRA_CA_CERTS: certs } });
      expect(r.status).toBe(0);
      const [{ text }] = JSON.parse(r.stdout) as Array<{ text: string }>;
      const seen = probeLines(text);
      expect(seen.exe).toBe(process.execPath);
      const argv = seen.argv.trim().split(' ');
      expect(argv[0]).toBe(process.execPath);
      expect(argv.slice(-3, -1)).toEqual([expect.stringMatching(/\/dist\/main\.js$/), 'mcp-serve']);
      expect(argv.at(-1)).toMatch(/^--config=\/.+\.json$/);
      expect(argv.slice(1, -3).every((a) => a.startsWith('--') || a.endsWith('awf-mcp.blob'))).toBe(true);
      expect(seen.certs).toBe(certs);
    } finally {
      p.cleanup();
    }
  });
});
