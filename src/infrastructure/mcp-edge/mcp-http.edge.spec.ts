import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ToolRouter } from '../../domain/ports/tool-router.port';
import { type McpHttpEndpoint, openMcpHttp } from './mcp-http.edge';
import { DEFAULT_SESSION_LIMITS, type SessionLimits } from './mcp-sessions';

/** One tool, `echo`, and `changed()` to say the tools changed: these tests are about the HTTP side. */
const listeners = new Set<() => void>();
const router: ToolRouter = {
  list: () => [{ name: 'echo', description: 'echoes', inputSchema: { type: 'object' }, source: 'test' }],
  call: async (_name, args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }),
  onToolsChanged: (listener) => (listeners.add(listener), () => listeners.delete(listener)),
  close: async () => undefined,
};
const changed = () => listeners.forEach((l) => l());

/** The SSE events of a response as they come: `{id, data}`, until `stop` says enough. */
async function events(res: Response, stop: (seen: Array<{ id?: string; data: string }>) => boolean) {
  const seen: Array<{ id?: string; data: string }> = [];
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  while (!stop(seen)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
      const lines = buffer.slice(0, cut).split('\n');
      buffer = buffer.slice(cut + 2);
      const field = (name: string) =>
        lines
          .find((l) => l.startsWith(`${name}:`))
          ?.slice(name.length + 1)
          .trim();
      if (field('data')) seen.push({ id: field('id'), data: field('data')! });
    }
  }
  await reader.cancel();
  return seen;
}

describe('/mcp over HTTP: 2025-era sessions and 2026-07-28 stateless requests', () => {
  let http: Server;
  let edge: McpHttpEndpoint;
  let url: string;

  /** The caller is the `x-test-caller` header here; in `awf serve` it is the token's name. */
  const listen = async (limits: SessionLimits = DEFAULT_SESSION_LIMITS): Promise<void> => {
    edge = openMcpHttp(router, () => undefined, { limits });
    http = createServer((req, res) => void edge.handle(req, res, String(req.headers['x-test-caller'] ?? 'a')));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  };
  afterEach(async () => {
    await edge.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });

  const oldClient = async (caller = 'a'): Promise<{ client: ClientV1; transport: TransportV1 }> => {
    const client = new ClientV1({ name: 'old', version: '1.0.0' });
    const transport = new TransportV1(new URL(url), { requestInit: { headers: { 'x-test-caller': caller } } });
    await client.connect(transport);
    return { client, transport };
  };
  const post = (sessionId: string, caller = 'a') =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-11-25',
        'x-test-caller': caller,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });

  it('keeps one session per 2025 client across its calls, ends it on DELETE, then answers 404', async () => {
    await listen();
    const { client, transport } = await oldClient();
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    for (let i = 0; i < 3; i++) {
      const r = await client.callTool({ name: 'echo', arguments: { i } });
      expect(r.content).toEqual([{ type: 'text', text: `{"i":${i}}` }]);
    }
    expect(edge.sessions).toBe(1);
    const id = transport.sessionId!;
    await transport.terminateSession();
    expect(edge.sessions).toBe(0);
    expect((await post(id)).status).toBe(404);
    await client.close();
  });

  it("resumes a session's lost stream with Last-Event-ID: what was sent meanwhile comes again", async () => {
    await listen();
    // By hand: the SDK client would hold the session's one GET stream itself.
    const rpc = (body: object, session?: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}),
        },
        body: JSON.stringify(body),
      });
    const init = await rpc({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const id = init.headers.get('mcp-session-id')!;
    await init.text();
    expect((await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }, id)).status).toBe(202);
    const get = (lastEventId?: string) =>
      fetch(url, {
        headers: {
          accept: 'text/event-stream',
          'mcp-session-id': id,
          'mcp-protocol-version': '2025-11-25',
          'x-test-caller': 'a',
          ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
        },
      });
    // The stream's headers go out with its first event: say the tools changed until one comes.
    const opening = get();
    const saying = setInterval(changed, 50);
    const first = await opening;
    expect(first.status).toBe(200);
    const [heard] = await events(first, (seen) => seen.length > 0);
    clearInterval(saying);
    expect(JSON.parse(heard.data)).toMatchObject({ method: 'notifications/tools/list_changed' });
    changed(); // while no stream is open
    // As a client would, again while the server has not yet heard the lost stream's connection
    // close (409): that takes a moment, not the next keep-alive 15 s on.
    let resumed = await get(heard.id);
    for (const until = Date.now() + 3000; resumed.status === 409 && Date.now() < until;) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      resumed = await get(heard.id);
    }
    expect(resumed.status).toBe(200);
    const again = await events(resumed, (seen) => seen.length > 0);
    expect(JSON.parse(again[0].data)).toMatchObject({ method: 'notifications/tools/list_changed' });
    expect(Number(again[0].id!.split('_').pop())).toBeGreaterThan(Number(heard.id!.split('_').pop()));
  });

  it("answers another caller's request for a session as for an unknown one", async () => {
    await listen();
    const { client, transport } = await oldClient('a');
    expect((await post(transport.sessionId!, 'b')).status).toBe(404);
    expect((await post(transport.sessionId!, 'a')).status).toBe(200);
    await client.close();
  });

  it('refuses a session past the cap and ends idle ones', async () => {
    await listen({ max: 1, perCaller: 2, idleMs: 200 });
    const first = await oldClient();
    await expect(oldClient()).rejects.toThrow(/503|too many MCP sessions/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(edge.sessions).toBe(0);
    expect((await post(first.transport.sessionId!)).status).toBe(404);
    const second = await oldClient(); // the slot is free again
    expect(edge.sessions).toBe(1);
    await Promise.all([first.client.close(), second.client.close()]);
  });

  it("ends a caller's least recently used session past its own cap, leaving other callers' alone", async () => {
    await listen({ max: 10, perCaller: 2, idleMs: 60_000 });
    const b = await oldClient('b');
    const [a1, a2] = [await oldClient('a'), await oldClient('a')];
    await a1.client.listTools(); // a2 is now the one used least recently
    const a3 = await oldClient('a');
    expect(edge.sessions).toBe(3);
    expect((await post(a2.transport.sessionId!)).status).toBe(404);
    for (const [c, caller] of [
      [a1, 'a'],
      [a3, 'a'],
      [b, 'b'],
    ] as const)
      expect((await post(c.transport.sessionId!, caller)).status).toBe(200);
    await Promise.all([a1, a2, a3, b].map((c) => c.client.close()));
  });

  it('still answers a 2026-07-28 client statelessly, holding no session for it', async () => {
    await listen();
    const client = new Client({ name: 'new', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    const r = await client.callTool({ name: 'echo', arguments: { x: 1 } });
    expect(r.content).toEqual([{ type: 'text', text: '{"x":1}' }]);
    expect([transport.protocolVersion, transport.sessionId]).toEqual(['2026-07-28', undefined]);
    expect(edge.sessions).toBe(0);
    await client.close();
  });
});
