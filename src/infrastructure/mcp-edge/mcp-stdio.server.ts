import type { Readable, Writable } from 'node:stream';
import { isAwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { isPlainObject } from '../../domain/model/plain-object';
import type { ToolDefinition } from '../../domain/model/tool-definition';
import type { ToolRouter } from '../../domain/ports/tool-router.port';
import type { ToolServerSession } from '../../domain/ports/tool-server.port';
import type { ToolProgress } from '../../domain/ports/tool-scope';
import { answerSent } from '../logging/after-answer';
import { CallSlots, MAX_CONCURRENT_CALLS } from './call-slots';
import { JsonRpcError, JsonRpcErrorCode, type JsonRpcMessage, type RequestId } from './json-rpc';
import { callToolParams, initializeParams, listToolsParams, negotiateProtocolVersion } from './mcp-protocol';
import { StdioLineTransport } from './stdio-line.transport';

export interface McpStdioServerOptions {
  name: string;
  version: string;
  stdin?: Readable;
  stdout?: Writable;
  /** Largest frame accepted; larger ones are refused with an error and the session goes on. */
  maxFrameBytes?: number;
  /** Told about every malformed frame, for the log. */
  onMalformedFrame?: (reason: string) => void;
  /** Told once, when the first answer is written (the end of a cold start). */
  onFirstAnswer?: () => void;
  /** Tool calls run at once; later ones wait in arrival order (see MAX_CONCURRENT_CALLS). */
  maxConcurrentCalls?: number;
}

/** `listChanged`: an upstream server's tools/list_changed is passed on (see serve()). */
const CAPABILITIES = { tools: { listChanged: true } };
type CallParams = ReturnType<typeof callToolParams>;

/**
 * The MCP edge: serves a ToolRouter over stdio, answering the server side of MCP that a
 * tool proxy needs (initialize, ping, tools/list, tools/call, cancellation) the way the SDK's
 * `Server` does, without its per-message zod schemas (docs/adr/093-perf-own-mcp-server-edge.md).
 * `serve()` settles when the client closes stdin or `stop()` is called. Tool failures are
 * `isError` results (the dispatcher's job); unknown tools and bad params are JSON-RPC errors.
 */
export class McpStdioServer implements ToolServerSession {
  private readonly transport: StdioLineTransport;
  private readonly stdin: Readable;
  private readonly calls: CallSlots<CallParams>;
  private readonly serverInfo: { name: string; version: string };
  private finished?: () => void;
  private onFirstAnswer?: () => void;
  /** Notifications wait for the client's initialize: before it, the session has not begun. */
  private initialized = false;

  constructor(
    private readonly tools: ToolRouter,
    options: McpStdioServerOptions,
  ) {
    this.onFirstAnswer = options.onFirstAnswer;
    this.calls = new CallSlots(options.maxConcurrentCalls ?? MAX_CONCURRENT_CALLS, (id, params, controller) => {
      void this.callTool(id, params, controller);
    });
    this.stdin = options.stdin ?? process.stdin;
    this.serverInfo = { name: options.name, version: options.version };
    this.transport = new StdioLineTransport(this.stdin, options.stdout ?? process.stdout, {
      maxFrameBytes: options.maxFrameBytes,
      onMalformed: options.onMalformedFrame,
    });
  }

  /** Serves until stdin ends or `stop()`. */
  async serve(): Promise<void> {
    const done = new Promise<void>((resolve) => (this.finished = resolve));
    const onEnd = (): void => void this.stop();
    this.stdin.once('end', onEnd);
    this.stdin.once('close', onEnd);
    this.transport.onclose = () => this.finished?.();
    this.transport.onmessage = (message) => this.onMessage(message);
    // The router has listed the changed tools again (policy applied) before it tells us.
    const unwatch = this.tools.onToolsChanged?.(() => {
      if (this.initialized) this.transport.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    });
    this.transport.start();
    await done;
    unwatch?.();
    this.stdin.off('end', onEnd);
    this.stdin.off('close', onEnd);
  }

  /** Aborts calls in flight and closes the transport. Idempotent. */
  async stop(): Promise<void> {
    this.calls.abortAll();
    this.transport.close();
    this.finished?.();
  }

  private onMessage(message: JsonRpcMessage): void {
    if (message.kind === 'notification') {
      if (message.method === 'notifications/cancelled') this.calls.cancel(message.params?.requestId);
      return; // notifications/initialized and anything else need no answer
    }
    if (message.kind === 'response') return; // this server sends no requests
    const { id, method, params } = message;
    try {
      switch (method) {
        case 'initialize':
          this.initialized = true;
          return this.answer(id, {
            protocolVersion: negotiateProtocolVersion(initializeParams(params).protocolVersion),
            capabilities: CAPABILITIES,
            serverInfo: this.serverInfo,
          });
        case 'ping':
          return this.answer(id, {});
        case 'tools/list':
          listToolsParams(params);
          return this.answer(id, { tools: this.tools.list().map(listed) });
        case 'tools/call':
          return this.calls.add(id, callToolParams(params));
        default:
          throw new JsonRpcError(JsonRpcErrorCode.MethodNotFound, 'Method not found');
      }
    } catch (err) {
      this.fail(id, err);
    }
  }

  private async callTool(id: RequestId, params: CallParams, controller: AbortController): Promise<void> {
    try {
      const token = params.progressToken;
      const onProgress =
        token === undefined
          ? undefined
          : (p: ToolProgress): void => {
              if (!controller.signal.aborted)
                this.transport.send({
                  jsonrpc: '2.0',
                  method: 'notifications/progress',
                  params: { progressToken: token, ...p },
                });
            };
      const pending = this.tools.call(params.name, params.arguments, { signal: controller.signal, onProgress });
      this.calls.dispatched();
      const result = await pending;
      if (!controller.signal.aborted) this.answer(id, result);
    } catch (err) {
      if (controller.signal.aborted) return; // a cancelled request gets no answer, as in the SDK
      this.fail(
        id,
        isAwfError(err) && err.code === ErrorCodes.TOOL_UNKNOWN
          ? new JsonRpcError(JsonRpcErrorCode.InvalidParams, `Unknown tool: ${params.name}`)
          : err,
      );
    } finally {
      this.calls.finished(id, controller);
    }
  }

  private answer(id: RequestId, result: unknown): void {
    this.transport.send({ jsonrpc: '2.0', id, result });
    answerSent(); // what waited for the answer to be out (onceAnswered)
    if (this.onFirstAnswer) {
      const told = this.onFirstAnswer;
      this.onFirstAnswer = undefined;
      told();
    }
  }

  private fail(id: RequestId, err: unknown): void {
    const code = err instanceof JsonRpcError ? err.code : JsonRpcErrorCode.InternalError;
    const message =
      err instanceof Error
        ? err.message
        : isPlainObject(err) && typeof err.message === 'string'
          ? err.message
          : 'Internal error';
    this.transport.send({ jsonrpc: '2.0', id, error: { code, message } });
    answerSent();
  }
}

/** A tool as tools/list gives it: MCP's fields, the optional ones only when the source has them. */
function listed(t: ToolDefinition): Record<string, unknown> {
  const tool: Record<string, unknown> = { name: t.name, description: t.description, inputSchema: t.inputSchema };
  if (t.title !== undefined) tool.title = t.title;
  if (t.outputSchema !== undefined) tool.outputSchema = t.outputSchema;
  if (t.annotations !== undefined) tool.annotations = t.annotations;
  return tool;
}
