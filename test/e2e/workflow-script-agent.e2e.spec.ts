import { resolve } from 'node:path';
import { ECHO_EXTENSION, REPO_ROOT } from '../support/cli';
import { awf, processesWith, workflowProject } from './workflow-support';

const CLASH_EXTENSION = resolve(REPO_ROOT, 'test/fixtures/workflow-extension/clash-tools.module.js');

const workflow = (calls: string, extra = '') => `name: script
inputs: [{name: who, default: ada}]
states:
  initial: agent
  agent:
    type: agent
    provider: script
    prompt: unused by the script agent
    mcp_proxy: {enable: true}
    options:
      calls:
${calls}
${extra}    on_success: done
  done: {type: terminal}
  failed: {type: terminal, status: failure, message: 'agent failed'}
`;

jest.setTimeout(120_000);

describe('the script agent drives awf mcp-serve over MCP stdio', () => {
  it('makes the calls in order and outputs the JSON list of results; nothing is left behind', () => {
    const p = workflowProject(
      {
        'wf.yaml': workflow(`        - tool: echo
          args: {text: 'hello {{.inputs.who}}'}
          expect: hello ada
        - tool: explode
          expect: {is_error: true, contains: kaboom}
        - tool: scope
          expect: '"step":"agent"'`),
      },
      [ECHO_EXTENSION],
    );
    try {
      const r = awf(['run', 'wf.yaml', '-f', 'json'], { cwd: p.dir, env: p.env });
      expect(r.status).toBe(0);
      const report = JSON.parse(r.stdout);
      expect(report.steps).toHaveLength(1);
      expect(report.steps[0]).toMatchObject({
        name: 'agent',
        type: 'agent',
        status: 'success',
        exit_code: 0,
        tool_calls: expect.any(Number),
      });
      const results = JSON.parse(report.steps[0].output);
      expect(results).toEqual([
        { tool: 'echo', is_error: false, text: 'hello ada' },
        { tool: 'explode', is_error: true, text: expect.stringContaining('kaboom from explode') },
        { tool: 'scope', is_error: false, text: expect.stringContaining(JSON.stringify(p.dir).slice(1, -1)) },
      ]);
      expect(p.leftovers()).toEqual([]);
      expect(processesWith(p.tmp)).toEqual([]);
    } finally {
      p.cleanup();
    }
  });

  it('fails the step on an unmet expectation (exit 3), or routes on with continue_on_error', () => {
    const calls = `        - tool: echo
          args: {text: nope}
          expect: yes
        - tool: echo
          args: {text: never reached}`;
    const p = workflowProject(
      { 'wf.yaml': workflow(calls), 'soft.yaml': workflow(calls, '    continue_on_error: true\n') },
      [ECHO_EXTENSION],
    );
    try {
      const hard = awf(['run', 'wf.yaml', '-f', 'json'], { cwd: p.dir, env: p.env });
      const report = JSON.parse(hard.stdout);
      expect(report.steps[0]).toMatchObject({
        status: 'failure',
        error: { code: 'EXECUTION.AGENT.FAILED', message: 'step "agent": call 1 (echo) output does not contain "yes"' },
      });
      expect(JSON.parse(report.steps[0].output)).toEqual([{ tool: 'echo', is_error: false, text: 'nope' }]);
      expect(hard.status).toBe(3);
      const soft = awf(['run', 'soft.yaml'], { cwd: p.dir, env: p.env });
      expect(soft.stderr).toMatch(/^✗ agent {2}failure/m);
      expect(soft.status).toBe(0);
      expect(p.leftovers()).toEqual([]);
    } finally {
      p.cleanup();
    }
  });

  it('refuses to start the agent when the step tools collide (preflight, exit 1)', () => {
    const p = workflowProject({ 'wf.yaml': workflow('        - tool: echo\n          args: {text: x}') }, [
      ECHO_EXTENSION,
      CLASH_EXTENSION,
    ]);
    try {
      const r = awf(['run', 'wf.yaml'], { cwd: p.dir, env: p.env });
      expect(r.stderr).toContain('[USER.MCP_PROXY.NAME_COLLISION] tool "echo" is served by both');
      expect(r.status).toBe(1);
      expect(p.leftovers()).toEqual([]);
    } finally {
      p.cleanup();
    }
  });

  it('needs the proxy: without mcp_proxy the step fails with a hint', () => {
    const p = workflowProject(
      {
        'wf.yaml': workflow('        - tool: echo\n          args: {text: x}').replace(
          '    mcp_proxy: {enable: true}\n',
          '',
        ),
      },
      [ECHO_EXTENSION],
    );
    try {
      const r = awf(['run', 'wf.yaml'], { cwd: p.dir, env: p.env });
      expect(r.stderr).toContain('[EXECUTION.AGENT.NO_PROXY]');
      expect(r.stderr).toContain('mcp_proxy: {enable: true}');
      expect(r.status).toBe(3);
    } finally {
      p.cleanup();
    }
  });
});
