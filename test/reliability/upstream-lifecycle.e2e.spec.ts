import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { connectMcpServe } from '../support/mcp-client';
import { childrenOf, isAlive, SERVER_EVERYTHING } from '../support/upstream-servers';
import { workflowProject } from '../e2e/workflow-support';

// Real processes on a shared two-core machine: generous bounds, never timing assertions.
jest.setTimeout(180_000);

const MARKER = `awf-upstream-lifecycle-${process.pid}`;
const everything = { name: 'everything', command: process.execPath, args: [SERVER_EVERYTHING, 'stdio', MARKER] };

async function until<T>(probe: () => T | undefined | false, what: string, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** Item 4: an upstream belongs to the mcp-serve that started it, however that one ends. */
describe.each([
  { end: 'stdin close (the client goes away)', how: 'stdin' },
  { end: 'SIGTERM', how: 'SIGTERM' },
  { end: 'SIGKILL (no code of mcp-serve runs: the parent-death signal)', how: 'SIGKILL' },
  { end: 'its owner process gone', how: 'owner' },
])('awf mcp-serve ended by $end', ({ how }) => {
  it('takes its upstream server down with it, during a call', async () => {
    const p = workflowProject();
    const owner = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      const session = await connectMcpServe(
        p.dir,
        { intercept_builtins: false, upstreams: [everything], ...(how === 'owner' ? { owner_pid: owner.pid } : {}) },
        { env: p.env },
      );
      const servePid = session.transport.pid!;
      const [upstream] = await until(
        () => childrenOf(servePid, MARKER).length > 0 && childrenOf(servePid, MARKER),
        'the upstream under mcp-serve',
      );
      const call = session.client
        .callTool(
          { name: 'everything_trigger-long-running-operation', arguments: { duration: 60, steps: 2 } },
          undefined,
          { timeout: 120_000 },
        )
        .catch((e: Error) => e);
      await sleep(300);
      if (how === 'stdin') await session.close();
      else if (how === 'owner') owner.kill('SIGKILL');
      else process.kill(servePid, how);
      await until(() => !isAlive(servePid), 'mcp-serve to exit');
      await until(() => !isAlive(upstream), `upstream ${upstream} to be gone`, 10_000).catch(() => undefined);
      const left = isAlive(upstream);
      if (left) process.kill(upstream, 'SIGKILL');
      await call;
      await session.close().catch(() => undefined);
      expect({ upstreamLeftRunning: left }).toEqual({ upstreamLeftRunning: false });
    } finally {
      owner.kill('SIGKILL');
      p.cleanup();
    }
  });
});

describe('an upstream killed mid-call, through awf mcp-serve', () => {
  it('gives the agent an isError naming it and its stderr, and the next call works', async () => {
    const p = workflowProject();
    try {
      const session = await connectMcpServe(
        p.dir,
        { intercept_builtins: false, upstreams: [everything] },
        { env: p.env },
      );
      const servePid = session.transport.pid!;
      const [upstream] = await until(
        () => childrenOf(servePid, MARKER).length > 0 && childrenOf(servePid, MARKER),
        'the upstream under mcp-serve',
      );
      const call = session.client.callTool(
        { name: 'everything_trigger-long-running-operation', arguments: { duration: 60, steps: 2 } },
        undefined,
        { timeout: 120_000 },
      );
      await sleep(500);
      process.kill(upstream, 'SIGKILL');
      const crashed = await call;
      expect(crashed.isError).toBe(true);
      expect((crashed.content as Array<{ text: string }>)[0].text).toMatch(
        /MCP server "everything" crashed during everything_trigger-long-running-operation \(it was killed by SIGKILL\)[\s\S]*awf starts it again/,
      );
      const again = await session.client.callTool({ name: 'everything_echo', arguments: { message: 'again' } });
      expect(again).toMatchObject({ content: [{ type: 'text', text: 'Echo: again' }] });
      expect(childrenOf(servePid, MARKER).filter((pid) => pid !== upstream)).toHaveLength(1);
      await session.close();
    } finally {
      p.cleanup();
    }
  });
});
