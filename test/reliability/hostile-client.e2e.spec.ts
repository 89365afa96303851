import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ECHO_EXTENSION, projectWithExtensions } from '../support/cli';
import { connectMcpServe } from '../support/mcp-client';
import { idKey } from './support/frame-generator';
import { memoryOf } from './support/proc-stats';
import { delay, RawMcpServe, withTimeout } from './support/raw-mcp-serve';

/** Clients that break the rules of the pipe rather than of the protocol. */
describe('awf mcp-serve with a misbehaving client', () => {
  const project = projectWithExtensions([ECHO_EXTENSION]);
  afterAll(() => project.cleanup());

  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 'init',
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });

  it('refuses a frame over 10 MiB with an error for that call and keeps serving the same session', async () => {
    const session = await connectMcpServe(project.dir, {});
    try {
      await expect(
        session.client.callTool({ name: 'echo', arguments: { text: 'x'.repeat(10 * 1024 * 1024) } }, undefined, {
          timeout: 20_000,
        }),
      ).rejects.toThrow(/exceeds the limit of 10485760 bytes/);
      expect(await session.client.callTool({ name: 'echo', arguments: { text: 'after' } })).toEqual({
        content: [{ type: 'text', text: 'after' }],
      });
    } finally {
      await session.close();
    }
  }, 60_000);

  it('answers a tools/call whose arguments are not an object with -32602 Invalid params', async () => {
    const server = RawMcpServe.start(project.dir, {});
    try {
      await server.write(
        Buffer.from(
          `${initialize}\n${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: 'text' } })}\n`,
        ),
      );
      await server.waitFor(() => server.answered.has(idKey(7)), 20_000, 'the answer to id 7');
      expect(server.responses.find((r) => r.id === 7)?.error).toMatchObject({ code: -32602 });
    } finally {
      server.kill();
    }
  });

  it('refuses ids that are not safe integers as invalid requests, answering id null rather than an id nobody sent', async () => {
    const server = RawMcpServe.start(project.dir, {});
    try {
      // 2^53 + 1 parses as 2^53: echoing it would answer a request that was never made.
      const unsafe = ['9007199254740993', '1.5', '-9007199254740993'].map(
        (id) => `{"jsonrpc":"2.0","id":${id},"method":"tools/list"}`,
      );
      await server.write(
        Buffer.from(
          `${initialize}\n${unsafe.join('\n')}\n{"jsonrpc":"2.0","id":9007199254740991,"method":"tools/list"}\n`,
        ),
      );
      await server.waitFor(
        () => server.answered.has(idKey(9007199254740991)),
        20_000,
        'the answer to the largest safe id',
      );
      const refused = server.responses.filter((r) => (r.id as unknown) === null);
      expect(refused).toHaveLength(3);
      for (const r of refused) expect(r.error).toMatchObject({ code: -32600 });
      expect(server.responses.some((r) => r.id === 9007199254740992)).toBe(false);
      expect(server.responses.find((r) => r.id === 9007199254740991)?.result).toBeDefined();
    } finally {
      server.kill();
    }
  });

  it('stops reading, instead of growing, while a client does not read its answers, then answers everything', async () => {
    const server = RawMcpServe.start(project.dir, {});
    try {
      await server.write(Buffer.from(`${initialize}\n`));
      await server.waitFor(() => server.answered.has(idKey('init')), 20_000, 'initialize');
      const baselineKiB = memoryOf(server.pid)!.rssKiB;
      server.child.stdout.pause();
      // 1000 calls with 64 KiB answers: 64 MiB of output, eight times the backlog limit.
      const calls = 1000;
      const text = 'r'.repeat(64 * 1024);
      const frames = Array.from(
        { length: calls },
        (_, i) =>
          `{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"echo","arguments":{"text":"${text}"}}}\n`,
      );
      let written = false;
      const writing = server.write(Buffer.from(frames.join(''))).then(() => (written = true));
      await delay(6000);
      const stalledKiB = memoryOf(server.pid)!.rssKiB;
      const writtenWhileStalled = written;
      server.child.stdout.resume();
      await writing;
      await server.waitFor(() => server.responses.length >= calls + 1, 60_000, `${calls} answers`);
      process.stderr.write(
        `[hostile client] slow reader: RSS ${(baselineKiB / 1024).toFixed(1)} MiB after initialize, ${(stalledKiB / 1024).toFixed(1)} MiB while the client was not reading\n`,
      );
      expect(writtenWhileStalled).toBe(false);
      expect(stalledKiB - baselineKiB).toBeLessThan(64 * 1024);
      expect(server.responses.filter((r) => r.result?.content?.[0]?.text === text)).toHaveLength(calls);
    } finally {
      server.kill();
    }
  }, 90_000);

  it('exits 0 and runs its shutdown hooks, without a stack trace, when the client stops reading for good (EPIPE)', async () => {
    const mark = join(project.dir, 'epipe.mark');
    const server = RawMcpServe.start(project.dir, {}, { AWF_TEST_SHUTDOWN_MARK: mark });
    await server.write(Buffer.from(`${initialize}\n`));
    await server.waitFor(() => server.answered.has(idKey('init')), 20_000, 'initialize');
    server.child.stdout.destroy();
    const big = 'e'.repeat(64 * 1024);
    for (let i = 0; i < 50 && server.child.exitCode === null; i++) {
      await server
        .write(
          Buffer.from(
            `${JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'echo', arguments: { text: big } } })}\n`,
          ),
        )
        .catch(() => undefined);
      await delay(20);
    }
    const exit = await withTimeout(server.exited, 10_000, { code: null, signal: null });
    server.kill();
    expect(exit).toEqual({ code: 0, signal: null });
    expect(server.stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(readFileSync(mark, 'utf8')).toBe('closed\n');
  }, 30_000);
});
