import type { Readable, Writable } from 'node:stream';
import {
  type JSONRPCMessage,
  parseJSONRPCMessage,
  ProtocolErrorCode,
  type RequestId,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
} from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { ToolRouter } from '../../domain/ports/tool-router.port';
import type { ToolServerEdge, ToolServerHooks, ToolServerSession } from '../../domain/ports/tool-server.port';
import { AWF_VERSION } from '../../version';
import { MCP_SERVER_NAME, newInFlight, toolServer } from './tool-server';

/**
 * Output buffered for a client that does not read it, beyond which no more input is read. At
 * 8 MiB the protocol fuzz peaked 450 MiB above its start (the SDK keeps each pending send and
 * its request until the pipe drains); at 1 MiB, about 100 MiB.
 */
const OUTPUT_BACKLOG_BYTES = 1024 * 1024;
/** How much of an oversized frame is kept to find its id. */
const PEEK_BYTES = 512;
const ID = String.raw`(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\\r\n]|\\.)*")`;
const ID_AT_HEAD = new RegExp(String.raw`^\uFEFF?\s*\{\s*(?:"jsonrpc"\s*:\s*"[^"]*"\s*,\s*)?"id"\s*:\s*${ID}\s*[,}]`);
const ID_AT_TAIL = new RegExp(String.raw`[{,]\s*"id"\s*:\s*${ID}\s*\}\s*$`);

export interface McpStdioEdgeOptions {
  name?: string;
  stdin?: Readable;
  stdout?: Writable;
}

/**
 * The MCP edge of `awf mcp-serve`: the SDK's low-level `Server` over stdio, through `serveStdio`,
 * which negotiates the protocol era (2026-07-28 `server/discover` and `_meta`, or a 2025-era
 * `initialize` down to 2024-11-05). The only file that imports the SDK's server package.
 * Tool failures are `isError` results (the router's); unknown tools are -32602.
 */
export class McpStdioEdge implements ToolServerEdge {
  constructor(private readonly options: McpStdioEdgeOptions = {}) {}

  open(router: ToolRouter, hooks: ToolServerHooks = {}): ToolServerSession {
    const inFlight = newInFlight();
    const transport = new GuardedStdioTransport(
      this.options.stdin ?? process.stdin,
      this.options.stdout ?? process.stdout,
      (reason) => hooks.onMalformedFrame?.(reason),
      () => Promise.allSettled([...inFlight.calls]),
    );
    const info = { name: this.options.name ?? MCP_SERVER_NAME, version: AWF_VERSION };
    let told: (() => void) | undefined;
    let handle: { close(): Promise<void> } | undefined;
    return {
      serve: async () => {
        handle = serveStdio(
          ({ era }) => {
            const server = toolServer(info, router, inFlight, true);
            let ready = era === 'modern';
            server.oninitialized = () => (ready = true);
            told = () => void (ready && server.sendToolListChanged().catch(() => undefined));
            return server;
          },
          { transport, onerror: () => undefined },
        );
        // The router has listed the changed tools again (policy applied) before it tells us.
        const unwatch = router.onToolsChanged?.(() => told?.());
        await transport.closed;
        unwatch?.();
        await handle.close();
      },
      stop: async () => {
        if (handle) await handle.close();
        else await transport.close();
      },
    };
  }
}

/**
 * The SDK's stdio transport, kinder to a client that misbehaves: a frame over the cap is
 * refused with an error for that request (the SDK closes the session), a malformed request
 * whose id can be read gets a JSON-RPC error (the SDK leaves the client waiting), a client
 * that stops reading pauses the input instead of growing memory, and when stdin ends the
 * calls in flight are answered before the transport closes.
 */
class GuardedStdioTransport extends StdioServerTransport {
  readonly closed: Promise<void>;
  private markClosed!: () => void;
  private pieces: Buffer[] = [];
  private bytes = 0;
  private oversized?: { head: string; tail: Buffer; bytes: number };
  private paused = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly malformed: (reason: string) => void,
    drained: () => Promise<unknown>,
  ) {
    super(input, output);
    this.closed = new Promise((resolve) => (this.markClosed = resolve));
    this._ondata = (chunk) => this.take(chunk);
    this._onstdinclose = () => void drained().then(() => this.close());
  }

  override async close(): Promise<void> {
    await super.close();
    this.markClosed();
  }

  override send(message: JSONRPCMessage): Promise<void> {
    const sent = super.send(message);
    if (this.output.writableLength > OUTPUT_BACKLOG_BYTES && !this.paused) {
      this.paused = true;
      this.input.pause();
      this.output.once('drain', () => ((this.paused = false), this.input.resume()));
    }
    return sent;
  }

  private take(chunk: Buffer): void {
    for (let start = 0; ;) {
      const nl = chunk.indexOf(0x0a, start);
      this.append(chunk.subarray(start, nl === -1 ? chunk.length : nl));
      if (nl === -1) return;
      this.endOfFrame();
      start = nl + 1;
    }
  }

  private append(part: Buffer): void {
    if (this.oversized) {
      this.oversized.tail = Buffer.concat([this.oversized.tail, part.subarray(-PEEK_BYTES)]).subarray(-PEEK_BYTES);
      this.oversized.bytes += part.length;
    } else if (this.bytes + part.length <= STDIO_DEFAULT_MAX_BUFFER_SIZE) {
      this.pieces.push(part);
      this.bytes += part.length;
    } else {
      const all = Buffer.concat([...this.pieces, part]);
      const tail = Buffer.from(all.subarray(-PEEK_BYTES));
      this.oversized = { head: all.toString('utf8', 0, PEEK_BYTES), tail, bytes: all.length };
      this.pieces = [];
      this.bytes = 0;
    }
  }

  private endOfFrame(): void {
    if (this.oversized) {
      const { head, tail, bytes } = this.oversized;
      this.oversized = undefined;
      const limit = STDIO_DEFAULT_MAX_BUFFER_SIZE;
      const reason = `Invalid Request: a frame of ${bytes} bytes exceeds the limit of ${limit} bytes`;
      return this.refuse(recoverId(head, tail.toString('utf8')), reason);
    }
    const frame = this.pieces.length === 1 ? this.pieces[0] : Buffer.concat(this.pieces);
    this.pieces = [];
    this.bytes = 0;
    const end = frame.length > 0 && frame[frame.length - 1] === 0x0d ? frame.length - 1 : frame.length;
    const line = frame.toString('utf8', 0, end);
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      const id = recoverId(line.slice(0, PEEK_BYTES), line.slice(-PEEK_BYTES));
      return this.refuse(id, 'Parse error: the frame is not valid JSON', ProtocolErrorCode.ParseError);
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch {
      return this.refuse(requestIdOf(value), 'Invalid Request: not a JSON-RPC 2.0 request, notification or response');
    }
    this.onmessage?.(message);
  }

  /** Answers with an error when the frame has an id (null when it cannot be read exactly). */
  private refuse(id: RequestId | null | undefined, reason: string, code = ProtocolErrorCode.InvalidRequest): void {
    this.malformed(reason);
    if (id === undefined) return;
    const error = { code, message: reason };
    void this.send({ jsonrpc: '2.0', id, error } as unknown as JSONRPCMessage).catch(() => undefined);
  }
}

/** The id of a parsed frame that is a request in all but form; responses are never answered. */
function requestIdOf(value: unknown): RequestId | null | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  if ('result' in value || 'error' in value) return undefined;
  return usableId((value as { id?: unknown }).id);
}

/** Reads the id of a frame too large to parse: the first key of the object, or its last. */
function recoverId(head: string, tail: string): RequestId | null | undefined {
  const match = ID_AT_HEAD.exec(head) ?? ID_AT_TAIL.exec(tail);
  try {
    return match ? usableId(JSON.parse(match[1])) : undefined;
  } catch {
    return undefined; // a string id with an escape JSON does not know
  }
}

/** A number id that is not a safe integer names no request exactly: it is answered as null. */
function usableId(id: unknown): RequestId | null | undefined {
  if (typeof id === 'string') return id;
  if (typeof id === 'number') return Number.isSafeInteger(id) ? id : null;
  return undefined;
}
