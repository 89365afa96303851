import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHANGING_TOOLS_SERVER } from '../support/upstream-servers';
import { awf, workflowProject } from './workflow-support';

jest.setTimeout(180_000);

/** Whether `pid` is still running (a zombie has ended: only its parent's wait is missing). */
const alive = (pid: number): boolean => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

/** A script-agent step that adds the tool `name` to the upstream server, then goes to `next`. */
const step = (id: string, name: string, next: string) => `  ${id}:
    type: agent
    provider: script
    prompt: unused by the script agent
    mcp_proxy: {enable: true, intercept_builtins: false, servers: [changing]}
    options:
      calls:
        - {tool: changing_add_tool, args: {name: ${name}}, expect: added ${name}}
    on_success: ${next}
`;

/** Two steps, each naming the same upstream server. */
const WORKFLOW = `name: spawn-once
states:
  initial: agent
${step('agent', 'extra', 'again')}${step('again', 'more', 'done')}  done: {type: terminal}
`;

const server = (spawnLog: string, command = process.execPath) => `mcp_servers:
  changing:
    command: ${JSON.stringify(command)}
    args: [${JSON.stringify(CHANGING_TOOLS_SERVER)}]
    env: {SPAWN_LOG: ${JSON.stringify(spawnLog)}}
`;

describe('the upstream servers of a step start once, in its mcp-serve', () => {
  it('spawns each server once per step: awf run checks it without starting it', () => {
    const project = workflowProject({ 'wf.yaml': WORKFLOW });
    const spawnLog = join(project.dir, 'spawns.log');
    mkdirSync(join(project.dir, '.awf'), { recursive: true });
    writeFileSync(join(project.dir, '.awf', 'config.yaml'), server(spawnLog));
    try {
      const r = awf(['run', 'wf.yaml'], { cwd: project.dir, env: project.env });
      expect({ status: r.status, stderr: r.status === 0 ? '' : r.stderr }).toEqual({ status: 0, stderr: '' });
      // Two steps, one server each: two spawns (before, awf run's preflight made it four).
      const spawned = readFileSync(spawnLog, 'utf8').trim().split('\n').map(Number);
      expect(spawned).toHaveLength(2);
      // By the pids this run's servers logged: other suites run the same server script at the same time.
      expect(spawned.filter(alive)).toEqual([]);
      expect(project.leftovers()).toEqual([]);
    } finally {
      project.cleanup();
    }
  });

  it('fails the step before the agent starts when the command is not there, having spawned nothing', () => {
    const project = workflowProject({ 'wf.yaml': WORKFLOW });
    const spawnLog = join(project.dir, 'spawns.log');
    mkdirSync(join(project.dir, '.awf'), { recursive: true });
    writeFileSync(join(project.dir, '.awf', 'config.yaml'), server(spawnLog, 'awf-no-such-mcp-server'));
    try {
      const r = awf(['run', 'wf.yaml'], { cwd: project.dir, env: project.env });
      expect(r.status).toBe(3);
      expect(r.stderr).toContain(
        '[EXECUTION.UPSTREAM.START_FAILED] MCP server "changing" cannot start: its command "awf-no-such-mcp-server" is not on PATH',
      );
      expect(existsSync(spawnLog)).toBe(false);
      expect(project.leftovers()).toEqual([]);
    } finally {
      project.cleanup();
    }
  });
});
