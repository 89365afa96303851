import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectMcpServe, type McpSession } from '../support/mcp-client';
import { childrenOf, installReliabilityPlugin, stillPresent, waitUntil } from './support/reliability-plugin';

// Real processes on a shared two-core machine: generous bounds, never timing assertions.
jest.setTimeout(240_000);

type Content = Array<{ type: string; text: string }>;
const text = (res: unknown): string => (res as { content: Content }).content.map((c) => c.text).join('\n');

/** Item 2 of the reliability issue, plugin half: kill -9 of a real plugin process under a call. */
describe('kill -9 of a plugin while a call to it is in flight, over awf mcp-serve', () => {
  const dir = mkdtempSync(join(tmpdir(), 'awf-rel-plugin-crash-'));
  let session: McpSession;
  let servePid: number;
  const pluginPids: number[] = [];

  /** The one live plugin process under mcp-serve, found from /proc as its child. */
  const livePlugin = (): number | undefined => {
    const kids = childrenOf(servePid).filter((p) => p.cmdline.includes('reliability-plugin.js') && p.state !== 'Z');
    return kids.length === 1 ? kids[0].pid : undefined;
  };

  /** Starts a `rel_hold` call, waits until the plugin has it, kills the plugin with SIGKILL. */
  const killUnderCall = async (
    round: number,
  ): Promise<{ killed: number; result: Awaited<ReturnType<McpSession['client']['callTool']>> }> => {
    const started = join(dir, `started-${round}`);
    const killed = await waitUntil(livePlugin, 'the plugin process under mcp-serve');
    const call = session.client.callTool({ name: 'rel_hold', arguments: { started_file: started } }, undefined, {
      timeout: 120_000,
    });
    await waitUntil(
      () => existsSync(started) && readFileSync(started, 'utf8') === String(killed),
      `the hold call to reach plugin ${killed}`,
    );
    process.kill(killed, 'SIGKILL');
    return { killed, result: await call };
  };

  beforeAll(async () => {
    const plugins = join(dir, 'plugins');
    installReliabilityPlugin(plugins);
    writeFileSync(join(dir, 'notes.txt'), 'still readable\n');
    session = await connectMcpServe(
      dir,
      { intercept_builtins: true, plugin_tools: [{ plugin: 'rel', expose: ['hold', 'pid'] }] },
      {
        env: { AWF_PLUGINS_PATH: plugins, XDG_DATA_HOME: join(dir, 'xdg'), AWF_PLUGIN_HANDSHAKE_TIMEOUT_MS: '30000' },
      },
    );
    servePid = session.transport.pid!;
  });
  afterAll(async () => {
    await session?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the cut-off call with an isError result naming the plugin; Read and Bash keep working', async () => {
    const { killed, result } = await killUnderCall(1);
    pluginPids.push(killed);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^plugin rel crashed during rel_hold \(it was killed by SIGKILL\)/);
    expect(text(result)).toContain('awf starts it again on the next call');

    const read = await session.client.callTool({ name: 'Read', arguments: { file_path: join(dir, 'notes.txt') } });
    expect(read.isError).toBeFalsy();
    expect(text(read)).toContain('still readable');
    const bash = await session.client.callTool({ name: 'Bash', arguments: { command: 'echo bash-after-crash' } });
    expect(bash.isError).toBeFalsy();
    expect(text(bash)).toContain('bash-after-crash');
    // mcp-serve reaped the killed plugin: no zombie, and nothing else started yet.
    expect(childrenOf(servePid).filter((p) => p.cmdline.includes('reliability-plugin.js'))).toEqual([]);
  });

  it('starts the plugin again on its next call, which succeeds', async () => {
    const res = await session.client.callTool({ name: 'rel_pid', arguments: {} });
    expect(res.isError).toBeFalsy();
    const { pid } = res.structuredContent as { pid: number };
    expect(pid).not.toBe(pluginPids[0]);
    expect(livePlugin()).toBe(pid);
  });

  it('restarts it at most 3 times, then keeps it down with a clear isError; no zombie or orphan is left', async () => {
    // The first crash used one restart (above); two more crashes use the other two.
    for (const round of [2, 3]) {
      const { killed, result } = await killUnderCall(round);
      pluginPids.push(killed);
      expect(text(result)).toContain('plugin rel crashed during rel_hold');
      const again = await session.client.callTool({ name: 'rel_pid', arguments: {} });
      expect(again.isError).toBeFalsy();
    }
    const { killed, result } = await killUnderCall(4);
    pluginPids.push(killed);
    expect(text(result)).toContain('plugin rel crashed during rel_hold');
    expect(new Set(pluginPids).size).toBe(4);

    for (const attempt of [1, 2]) {
      const down = await session.client.callTool({ name: 'rel_pid', arguments: {} });
      expect({ attempt, isError: down.isError, text: text(down) }).toEqual({
        attempt,
        isError: true,
        text: expect.stringContaining('plugin rel crashed 4 times; awf no longer restarts it in this session'),
      });
    }
    expect(childrenOf(servePid).filter((p) => p.cmdline.includes('reliability-plugin.js'))).toEqual([]);
    const bash = await session.client.callTool({ name: 'Bash', arguments: { command: 'echo still-serving' } });
    expect(text(bash)).toContain('still-serving');

    await session.close();
    await waitUntil(() => stillPresent([servePid]).length === 0, 'mcp-serve to exit');
    expect(stillPresent(pluginPids)).toEqual([]);
  });
});
