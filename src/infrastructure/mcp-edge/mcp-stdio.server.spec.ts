import { PassThrough } from 'node:stream';
import type { ToolRouter } from '../../domain/ports/tool-router.port';
import { McpStdioServer } from './mcp-stdio.server';

/** A dispatcher whose calls finish when the test says so. */
function gatedTools() {
  const gates = new Map<string, () => void>();
  const started: string[] = [];
  const dispatcher: ToolRouter = {
    list: () => [
      { name: 'wait', description: 'waits', source: 'test', inputSchema: { type: 'object', properties: {} } },
    ],
    call: (_name, args, options) =>
      new Promise((resolve, reject) => {
        const key = String((args as { key: string }).key);
        started.push(key);
        gates.set(key, () => resolve({ content: [{ type: 'text', text: key }] }));
        options?.signal?.addEventListener('abort', () => reject(new Error('aborted')));
      }),
    close: async () => undefined,
  };
  return { dispatcher, started, finish: (key: string) => gates.get(key)?.() };
}

function session(dispatcher: ToolRouter, maxConcurrentCalls: number) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const answers: Array<{ id: unknown; result?: { content: Array<{ text: string }> }; error?: { code: number } }> = [];
  let buffered = '';
  stdout.on('data', (c: Buffer) => {
    buffered += c.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    answers.push(...lines.map((l) => JSON.parse(l)));
  });
  const server = new McpStdioServer(dispatcher, { name: 't', version: '0', stdin, stdout, maxConcurrentCalls });
  const served = server.serve();
  const send = (frame: object) => stdin.write(JSON.stringify({ jsonrpc: '2.0', ...frame }) + '\n');
  const call = (id: number, key: string) =>
    send({ id, method: 'tools/call', params: { name: 'wait', arguments: { key } } });
  const settle = () => new Promise((r) => setImmediate(r));
  return { send, call, settle, answers, end: async () => (stdin.end(), await served) };
}

describe('McpStdioServer, calls beyond the concurrency cap', () => {
  it('wait, start in arrival order as running calls finish, and are all answered', async () => {
    const tools = gatedTools();
    const s = session(tools.dispatcher, 2);
    ['a', 'b', 'c', 'd'].forEach((k, i) => s.call(i + 1, k));
    await s.settle();
    expect(tools.started).toEqual(['a', 'b']);
    tools.finish('b');
    await s.settle();
    expect(tools.started).toEqual(['a', 'b', 'c']);
    ['a', 'c'].forEach(tools.finish);
    await s.settle();
    tools.finish('d');
    await s.settle();
    expect(s.answers.map((a) => a.result?.content[0].text)).toEqual(['b', 'a', 'c', 'd']);
    await s.end();
  });

  it('drop a waiting call that the client cancels, without an answer, and abort a running one', async () => {
    const tools = gatedTools();
    const s = session(tools.dispatcher, 1);
    s.call(1, 'running');
    s.call(2, 'cancelled-while-waiting');
    s.call(3, 'next');
    s.send({ method: 'notifications/cancelled', params: { requestId: 2 } });
    s.send({ method: 'notifications/cancelled', params: { requestId: 1 } });
    await s.settle();
    expect(tools.started).toEqual(['running', 'next']);
    tools.finish('next');
    await s.settle();
    expect(s.answers.map((a) => a.id)).toEqual([3]);
    await s.end();
  });

  it('answers ping and tools/list at once while calls wait', async () => {
    const tools = gatedTools();
    const s = session(tools.dispatcher, 1);
    s.call(1, 'slow');
    s.call(2, 'queued');
    s.send({ id: 3, method: 'ping' });
    s.send({ id: 4, method: 'tools/list' });
    await s.settle();
    expect(s.answers.map((a) => a.id)).toEqual([3, 4]);
    await s.end();
    expect(s.answers.map((a) => a.id)).toEqual([3, 4]);
  });
});
