import type { Readable, Writable } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { isAwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { ToolDispatcher } from '../../domain/ports/tool-dispatcher.port';
import { StdioLineTransport } from './stdio-line.transport';

/**
 * The SDK validates tools/call params twice: once generically (a failure there is reported as
 * -32603 Internal error) and once in Server's own wrapper (reported as -32602 Invalid params).
 * Letting the first pass through leaves the second, which gives a client the right code.
 */
const LenientCallToolRequestSchema = CallToolRequestSchema.extend({ params: z.unknown() });

export interface McpStdioServerOptions {
  name: string;
  version: string;
  stdin?: Readable;
  stdout?: Writable;
  /** Largest frame accepted; larger ones are refused with an error and the session goes on. */
  maxFrameBytes?: number;
  /** Told about every malformed frame, for the log. */
  onMalformedFrame?: (reason: string) => void;
}

/**
 * The MCP edge: the only code that speaks the SDK. It serves a ToolDispatcher over stdio
 * and settles `serve()` when the client closes stdin or `stop()` is called. Tool failures
 * are `isError` results (the dispatcher's job); only unknown tools become JSON-RPC errors.
 */
export class McpStdioServer {
  private readonly server: Server;
  private readonly transport: StdioLineTransport;
  private readonly stdin: Readable;
  private readonly inFlight = new Set<AbortController>();
  private finished?: () => void;

  constructor(private readonly tools: ToolDispatcher, options: McpStdioServerOptions) {
    this.stdin = options.stdin ?? process.stdin;
    this.server = new Server({ name: options.name, version: options.version }, { capabilities: { tools: { listChanged: false } } });
    this.transport = new StdioLineTransport(this.stdin, options.stdout ?? process.stdout, { maxFrameBytes: options.maxFrameBytes, onMalformed: options.onMalformedFrame });
    this.server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: this.tools.list().map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
    }));
    this.server.setRequestHandler(LenientCallToolRequestSchema, (request, extra) => {
      const { name, arguments: args } = request.params as CallToolRequest['params'];
      return this.callTool(name, args, extra.signal);
    });
  }

  /** Serves until stdin ends or `stop()`; the SDK transport alone never notices EOF. */
  async serve(): Promise<void> {
    const done = new Promise<void>((resolve) => (this.finished = resolve));
    const onEnd = (): void => void this.stop();
    this.stdin.once('end', onEnd);
    this.stdin.once('close', onEnd);
    this.server.onclose = () => this.finished?.();
    await this.server.connect(this.transport);
    await done;
    this.stdin.off('end', onEnd);
    this.stdin.off('close', onEnd);
  }

  /** Aborts calls in flight and closes the transport. Idempotent. */
  async stop(): Promise<void> {
    for (const controller of this.inFlight) controller.abort();
    await this.server.close().catch(() => undefined);
    this.finished?.();
  }

  private async callTool(name: string, args: unknown, clientSignal: AbortSignal) {
    const controller = new AbortController();
    const abort = (): void => controller.abort();
    clientSignal.addEventListener('abort', abort, { once: true });
    this.inFlight.add(controller);
    try {
      const result = await this.tools.call(name, args ?? {}, { signal: controller.signal });
      return { ...result };
    } catch (err) {
      if (isAwfError(err) && err.code === ErrorCodes.TOOL_UNKNOWN) {
        throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
      }
      throw new McpError(ErrorCode.InternalError, err instanceof Error ? err.message : String(err));
    } finally {
      clientSignal.removeEventListener('abort', abort);
      this.inFlight.delete(controller);
    }
  }
}
