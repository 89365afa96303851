import { randomUUID } from 'node:crypto';
import { type Server, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { SessionEventStore } from './mcp-event-store';

/** Bounds on what 2025-era sessions may hold (ADR 300). */
export interface SessionLimits {
  /** Sessions open at once; an `initialize` past it gets 503 until one ends. */
  max: number;
  /**
   * Sessions one caller (token) may hold: its next `initialize` ends its least recently used one
   * (whose next request gets 404, and a client then opens a new one), so no caller can take every
   * slot from the others.
   */
  perCaller: number;
  /** A session with no request for this long is ended (its next request gets 404). */
  idleMs: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { max: 256, perCaller: 64, idleMs: 30 * 60_000 };

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  /** The caller (token name) that opened it: another caller's request is answered as for no session. */
  caller: string;
  lastSeen: number;
}

/**
 * The 2025-era sessions of `/mcp` (Streamable HTTP, 2025-03-26 to 2025-11-25): each its own SDK
 * transport (`sessionIdGenerator`, an `eventStore` for `Last-Event-ID` resumption) and server,
 * kept between requests so a client's calls reuse them. The transport speaks the protocol (the
 * `Mcp-Session-Id` header, GET streams, DELETE, 400 without a session); this class only finds a
 * request's session, binds it to the caller that opened it, and bounds how many there are and
 * how long an idle one lives.
 */
export class McpSessions {
  private readonly open = new Map<string, Session>();
  /** Requests without a session being answered now: each may open one, so each counts against the cap. */
  private starting = 0;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly newServer: () => Server,
    private readonly options: { limits: SessionLimits; maxBodyBytes: number; onError: (err: Error) => void },
  ) {
    const every = Math.max(10, Math.min(60_000, Math.floor(options.limits.idleMs / 2)));
    this.sweeper = setInterval(() => this.sweep(), every);
    this.sweeper.unref();
  }

  get size(): number {
    return this.open.size;
  }

  /** Runs `tell` on the server of each open session (a change its client should hear of). */
  tellAll(tell: (server: Server) => Promise<void>): void {
    for (const s of this.open.values()) void tell(s.server).catch(() => undefined);
  }

  async fetch(request: Request, caller: string): Promise<Response> {
    const id = request.headers.get('mcp-session-id');
    if (id === null) return request.method === 'POST' ? this.start(request, caller) : noSession(400);
    const session = this.open.get(id);
    if (!session || session.caller !== caller) return noSession(404);
    session.lastSeen = Date.now();
    return endsWithClient(request, await session.transport.handleRequest(request));
  }

  /** A request without a session: the transport answers (an `initialize` opens one, anything else is 400). */
  private async start(request: Request, caller: string): Promise<Response> {
    const own = [...this.open].filter(([, s]) => s.caller === caller).sort(([, a], [, b]) => a.lastSeen - b.lastSeen);
    if (own.length >= this.options.limits.perCaller) await this.end(...own[0]);
    if (this.open.size + this.starting >= this.options.limits.max)
      return rpcError(503, `too many MCP sessions open (${this.options.limits.max}); end one with DELETE`);
    this.starting++;
    try {
      return await this.opened(request, caller);
    } finally {
      this.starting--;
    }
  }

  private async opened(request: Request, caller: string): Promise<Response> {
    const server = this.newServer();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new SessionEventStore(),
      maxRequestBodySize: this.options.maxBodyBytes,
      onsessioninitialized: (id) => {
        this.open.set(id, { transport, server, caller, lastSeen: Date.now() });
      },
      // A DELETE: the transport is done; the server goes with it.
      onsessionclosed: (id) => {
        this.open.delete(id);
        void server.close().catch(() => undefined);
      },
    });
    transport.onerror = this.options.onError;
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    // No session came of it (not an initialize, or a refused one): nothing to keep.
    if (!transport.sessionId || !this.open.has(transport.sessionId)) await server.close().catch(() => undefined);
    return response;
  }

  private sweep(): void {
    const before = Date.now() - this.options.limits.idleMs;
    for (const [id, s] of this.open) if (s.lastSeen < before) void this.end(id, s);
  }

  private async end(id: string, s: Session): Promise<void> {
    this.open.delete(id);
    await s.server.close().catch((err: unknown) => this.options.onError(err as Error));
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.open].map(([id, s]) => this.end(id, s)));
  }
}

/**
 * A stream that ends when its client goes. The Node adapter notices a closed connection only when
 * the next chunk is due (the keep-alive, 15 s on): until then the transport keeps the stream, and
 * a client resuming it with `Last-Event-ID` would get 409. The request's signal (aborted by the
 * adapter when the connection closes) cancels it at once instead.
 */
function endsWithClient(request: Request, response: Response): Response {
  if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  if (request.signal.aborted) cancel();
  else request.signal.addEventListener('abort', cancel, { once: true });
  const body = new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      const { value, done } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel,
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** 400 for a request that needs a session and names none, 404 for one the server does not have (any more). */
function noSession(status: 400 | 404): Response {
  return status === 400
    ? rpcError(400, 'Bad Request: Mcp-Session-Id header is required')
    : rpcError(404, 'Session not found: initialize a new session');
}

function rpcError(status: number, message: string): Response {
  const body = { jsonrpc: '2.0', error: { code: -32000, message }, id: null };
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
