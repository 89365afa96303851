import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { awf, workflowProject } from './workflow-support';

jest.setTimeout(120_000);

/** Run by Bash through the proxy: how its parent, the step's mcp-serve, was started. */
// Bash runs in a PID namespace of its own (docs/tools.md), so $PPID is not mcp-serve: walk up the
// host's /proc to the ancestor whose argv has a `mcp-serve` element.
const FIND_SERVE =
  "p=$(readlink /proc/self); while [ \"$p\" -gt 1 ] && ! tr '\\0' '\\n' < /proc/$p/cmdline | grep -qx mcp-serve; " +
  "do p=$(awk '/^PPid:/{print $2}' /proc/$p/status); done; SERVE=$p";
const PROBE = [
  FIND_SERVE,
  'echo "exe=$(readlink /proc/$SERVE/exe)"',
  "echo \"argv=$(tr '\\0' ' ' < /proc/$SERVE/cmdline)\"",
  "echo \"certs=$(tr '\\0' '\\n' < /proc/$SERVE/environ | sed -n 's/^NODE_EXTRA_CA_CERTS=//p')\"",
].join('; ');

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
          args: {command: ${JSON.stringify(PROBE)}}
    on_success: done
  done: {type: terminal}
`;

/** ADR 120: what an agent is handed is `node [flags] main.js mcp-serve --config=…`, nothing around it. */
describe('the command awf run hands an agent', () => {
  // The probe cannot find mcp-serve from a Bash call that runs in its own PID namespace (issue #21);
  // to be rewritten to read the agent's child from the test's side.
  it.skip('is the node that runs awf with main.js mcp-serve, the caller’s NODE_EXTRA_CA_CERTS left as it is — SKIPPED: the /proc probe cannot see mcp-serve from Bash in its own PID namespace', () => {
    const p = workflowProject({ 'wf.yaml': WORKFLOW });
    try {
      const certs = join(p.dir, 'extra-ca.pem');
      writeFileSync(certs, `${rootCertificates[0]}\n`);
      const r = awf(['run', 'wf.yaml'], { cwd: p.dir, env: { ...p.env, NODE_EXTRA_CA_CERTS: certs } });
      expect(r.status).toBe(0);
      const [{ text }] = JSON.parse(r.stdout) as Array<{ text: string }>;
      const seen = Object.fromEntries(
        text
          .trim()
          .split('\n')
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
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
