import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_EVERYTHING } from '../support/upstream-servers';
import { awf, processesWith, workflowProject } from './workflow-support';

jest.setTimeout(180_000);

/** Extra argument server-everything ignores: tells this file's servers from other tests' in the process list. */
const MARKER = `awf-upstream-e2e-${process.pid}`;

const config = (extra = '') => `# .awf/config.yaml
mcp_servers:
  everything:
    command: ${JSON.stringify(process.execPath)}
    args: [${JSON.stringify(SERVER_EVERYTHING)}, stdio, ${MARKER}]
    timeout: 60s
${extra}telemetry: {exporter: file, file: spans.jsonl}
`;

const workflow = (servers: string, calls: string) => `name: upstream
states:
  initial: agent
  agent:
    type: agent
    provider: script
    prompt: unused by the script agent
    mcp_proxy: {enable: true, intercept_builtins: false, servers: ${servers}}
    options:
      calls:
${calls}
    on_success: done
  done: {type: terminal}
`;

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('a workflow step with servers: [everything] (server-everything over stdio, through awf mcp-serve)', () => {
  it('lets the script agent call everything_echo and everything_get-sum; the audit and the spans show both', () => {
    const p = workflowProject({
      '.awf/config.yaml': config(),
      'wf.yaml': workflow(
        '[everything]',
        `        - tool: everything_echo
          args: {message: hello upstream}
          expect: 'Echo: hello upstream'
        - tool: everything_get-sum
          args: {a: 19, b: 23}
          expect: '42'`,
      ),
    });
    try {
      const r = awf(['run', 'wf.yaml', '-f', 'json'], { cwd: p.dir, env: p.env });
      expect(r.stderr).not.toContain('[EXECUTION');
      expect(r.status).toBe(0);
      const report = JSON.parse(r.stdout);
      expect(
        JSON.parse(report.steps[0].output).map((c: { tool: string; is_error: boolean }) => [c.tool, c.is_error]),
      ).toEqual([
        ['everything_echo', false],
        ['everything_get-sum', false],
      ]);
      const runDir = join(p.dir, 'data', 'awf', 'runs', report.run_id);
      const audit = lines(
        join(
          runDir,
          readdirSync(runDir).find((f) => f.endsWith('.events.jsonl'))!,
        ),
      );
      expect(audit.map((e) => [e.tool, e.source, e.status])).toEqual([
        ['everything_echo', 'mcp:everything', 'ok'],
        ['everything_get-sum', 'mcp:everything', 'ok'],
      ]);
      const spans = lines(join(p.dir, 'spans.jsonl'));
      const step = spans.find((s) => s.name === 'step agent');
      const calls = spans.filter((s) => String(s.name).startsWith('tool.call everything_'));
      expect(calls.map((s) => s.name).sort()).toEqual(['tool.call everything_echo', 'tool.call everything_get-sum']);
      expect(step).toBeDefined();
      for (const c of calls) expect(c.parent_span_id).toBe(step!.span_id);
      expect(p.leftovers()).toEqual([]);
      expect(processesWith(MARKER)).toEqual([]);
    } finally {
      p.cleanup();
    }
  });

  it('hides what expose leaves out: everything_get-sum is not served', () => {
    const p = workflowProject({
      '.awf/config.yaml': config(),
      'wf.yaml': workflow(
        '[{name: everything, expose: [echo]}]',
        `        - tool: everything_echo
          args: {message: still here}
          expect: 'Echo: still here'
        - tool: everything_get-sum
          args: {a: 1, b: 2}
          expect: {is_error: true, contains: everything_get-sum}`,
      ),
    });
    try {
      const r = awf(['run', 'wf.yaml', '-f', 'json'], { cwd: p.dir, env: p.env });
      expect(r.status).toBe(0);
    } finally {
      p.cleanup();
    }
  });

  it('awf validate names an unknown server and an invalid definition with USER.MCP_PROXY codes (exit 1)', () => {
    const p = workflowProject({
      '.awf/config.yaml': config(),
      'wf.yaml': workflow(
        '[everything, nosuch, {name: inline, url: "ftp://x"}]',
        `        - tool: everything_echo
          args: {message: x}`,
      ),
    });
    try {
      const r = awf(['validate', 'wf.yaml'], { cwd: p.dir, env: p.env });
      expect(r.status).toBe(1);
      expect(r.stderr + r.stdout).toContain(
        '[USER.MCP_PROXY.UNKNOWN_SERVER] states.agent.mcp_proxy.servers[1]: unknown server "nosuch"',
      );
      expect(r.stderr + r.stdout).toContain('[USER.MCP_PROXY.INVALID_URL] states.agent.mcp_proxy.servers[2].url');
    } finally {
      p.cleanup();
    }
  });

  it('fails the step when a server cannot start in its mcp-serve, with its code and stderr tail', () => {
    const p = workflowProject({
      '.awf/config.yaml': config(`  broken:
    command: ${JSON.stringify(process.execPath)}
    args: ['-e', 'console.error("cannot reach database at db:5432"); process.exit(2)']
`),
      'wf.yaml': workflow(
        '[everything, broken]',
        `        - tool: everything_echo
          args: {message: never}`,
      ),
    });
    try {
      const r = awf(['run', 'wf.yaml'], { cwd: p.dir, env: p.env });
      expect(r.status).toBe(3);
      expect(r.stderr).toContain('[EXECUTION.UPSTREAM.START_FAILED]');
      expect(r.stderr).toContain('cannot reach database at db:5432');
      expect(p.leftovers()).toEqual([]);
      expect(processesWith(MARKER)).toEqual([]);
    } finally {
      p.cleanup();
    }
  });
});
