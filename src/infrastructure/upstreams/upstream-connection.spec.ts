import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resultText } from '../../domain/model/tool-result';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import { startEverythingHttp } from '../../../test/support/upstream-servers';
import { UpstreamConnection } from './upstream-connection';

// Real server-everything over Streamable HTTP, behind a loopback relay that records each
// request's method and can answer one in the server's place.
jest.setTimeout(120_000);

const quiet: AppLogger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };
const signal = new AbortController().signal;

interface Relay {
  url: string;
  methods: string[];
  /** The next POST gets this answer instead of the server's. */
  failNext?: { status: number; body: string };
  /** Every POST gets this answer (a server with no Streamable HTTP endpoint). */
  failPosts?: { status: number; body: string };
  server: Server;
}

async function relay(target?: string): Promise<Relay> {
  const r = { methods: [] as string[] } as Relay;
  r.server = createServer((req, res) => {
    r.methods.push(req.method!);
    const fail = req.method === 'POST' ? (r.failNext ?? r.failPosts) : undefined;
    if (fail || !target) {
      r.failNext = undefined;
      req.resume();
      res.writeHead(fail?.status ?? 401, { 'content-type': 'text/plain' });
      return res.end(fail?.body ?? 'token expired: sign in again');
    }
    const to = new URL(target);
    const up = request(to, { method: req.method, headers: { ...req.headers, host: to.host } }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    req.pipe(up);
  });
  await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}/mcp`;
  return r;
}

const closed = (r: Relay): Promise<void> => new Promise((resolve) => r.server.close(() => resolve()));

describe('UpstreamConnection over HTTP (the SDK Client, Streamable HTTP)', () => {
  it('keeps the HTTP status and the server’s words of a failed call, and DELETEs the session on close', async () => {
    const everything = await startEverythingHttp('streamableHttp');
    const r = await relay(everything.url);
    try {
      const connection = await UpstreamConnection.open({ name: 'remote', url: r.url }, quiet);
      expect(connection.tools.map((t) => t.name)).toContain('echo');
      expect(resultText(await connection.call('echo', { message: 'hi' }, { signal }))).toBe('Echo: hi');
      r.failNext = { status: 503, body: 'overloaded, retry in a minute' };
      await expect(connection.call('echo', { message: 'hi' }, { signal })).rejects.toMatchObject({
        kind: 'failed',
        message: expect.stringMatching(/^HTTP 503 Service Unavailable: overloaded, retry in a minute/),
      });
      await connection.close();
      expect(r.methods).toContain('DELETE');
    } finally {
      r.server.closeAllConnections();
      await closed(r);
      await everything.stop();
    }
  });

  it('reports a 401 of the first POST as it is, without trying legacy SSE', async () => {
    const r = await relay();
    try {
      const err = await UpstreamConnection.open({ name: 'walled', url: r.url }, quiet).catch((e: Error) => e);
      expect((err as Error).message).toContain(
        'MCP server "walled" failed to start: HTTP 401 Unauthorized: token expired: sign in again',
      );
      expect(r.methods).toEqual(['POST']);
    } finally {
      await closed(r);
    }
  });

  it('falls back to legacy SSE when its POSTs get 404 (after server/discover, a 2025 initialize)', async () => {
    const r = await relay();
    r.failPosts = { status: 404, body: 'no such endpoint' };
    try {
      await UpstreamConnection.open({ name: 'old', url: r.url }, quiet).catch(() => undefined);
      expect(r.methods.slice(0, 3)).toEqual(['POST', 'POST', 'GET']); // the GET is the SSE stream's
    } finally {
      await closed(r);
    }
  });
});
