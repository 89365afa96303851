import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../../domain/model/tool-result';

export interface UpstreamCallOptions {
  signal: AbortSignal;
  traceparent?: string;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** A type, not an interface: it is sent as the SDK's open-ended request params. */
type CallRequest = {
  name: string;
  arguments: Record<string, unknown>;
  _meta?: Record<string, string>;
};

type ProgressParams = { progressToken?: unknown; progress?: number; total?: number; message?: string };

/** Why a call to an upstream did not give a result: the provider words each for the agent. */
export class UpstreamCallError extends Error {
  constructor(
    readonly kind: 'timeout' | 'cancelled' | 'closed' | 'refused' | 'malformed',
    message: string,
  ) {
    super(message);
  }
}

interface Pending {
  resolve: (result: ToolResult) => void;
  reject: (error: UpstreamCallError) => void;
  /** Rejects and tells the server to stop (a timeout, a cancellation). */
  giveUp: (error: UpstreamCallError) => void;
  deadline: number;
}

/** Our ids and progress tokens are strings, the SDK Client's are numbers: the two never meet. */
const ID_PREFIX = 'awf-call-';
const TOKEN_PREFIX = 'awf-';

/**
 * The `tools/call` requests of one connection, written on the SDK Client's own transport, their
 * responses taken off it before the Client's Protocol sees them (ADR 237). Everything else on
 * the connection (initialize, tools/list, list_changed, the server's own requests) stays the
 * Client's. A result goes back as the server sent it, once checked to be a CallToolResult
 * (an object with a `content` array of typed items); timeouts and cancellation send MCP's
 * `notifications/cancelled`, as the SDK does. Progress is passed on as it arrives: through the
 * SDK's `onprogress` the last notification before a result was lost (its notification handlers
 * run a microtask after the response is settled).
 */
export class UpstreamCalls {
  /** In the order sent, which is deadline order: every call of a connection has its timeout. */
  private readonly pending = new Map<string, Pending>();
  private readonly progress = new Map<string, NonNullable<UpstreamCallOptions['onProgress']>>();
  private next = 0;
  /** One timer for all calls, at the first deadline; unref'd: a call in flight holds the loop by its transport. */
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly transport: Transport,
    private readonly timeoutMs: number,
  ) {}

  call(name: string, args: Record<string, unknown>, options: UpstreamCallOptions): Promise<ToolResult> {
    const request: CallRequest = { name, arguments: args, _meta: undefined };
    if (options.traceparent) request._meta = { traceparent: options.traceparent };
    const onProgress = options.onProgress;
    if (!onProgress) return this.send(request, options.signal);
    const token = TOKEN_PREFIX + ++this.next;
    request._meta = { ...request._meta, progressToken: token };
    this.progress.set(token, onProgress);
    return this.send(request, options.signal).finally(() => this.progress.delete(token));
  }

  /** True when `message` was ours (a response to one of our calls, or its progress); the rest is the Client's. */
  take(message: JSONRPCMessage): boolean {
    const id = (message as { id?: unknown }).id;
    if (typeof id === 'string' && id.startsWith(ID_PREFIX) && !('method' in message)) return this.settle(id, message);
    const { method, params } = message as { method?: string; params?: ProgressParams };
    if (method !== 'notifications/progress' || typeof params?.progressToken !== 'string') return false;
    const onProgress = this.progress.get(params.progressToken);
    if (!onProgress) return params.progressToken.startsWith(TOKEN_PREFIX);
    onProgress({ progress: params.progress ?? 0, total: params.total, message: params.message });
    return true;
  }

  /** The connection ended: every call still waiting fails, and the provider tells a crash from a close. */
  closed(): void {
    for (const call of [...this.pending.values()]) call.reject(new UpstreamCallError('closed', 'Connection closed'));
  }

  private send(request: CallRequest, signal: AbortSignal): Promise<ToolResult> {
    if (signal.aborted) return Promise.reject(new UpstreamCallError('cancelled', 'the call was cancelled'));
    const id = ID_PREFIX + ++this.next;
    return new Promise<ToolResult>((resolve, reject) => {
      const settle = (): void => {
        this.pending.delete(id);
        signal.removeEventListener('abort', onAbort);
      };
      const giveUp = (error: UpstreamCallError): void => {
        settle();
        void this.transport
          .send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: error.message } })
          .catch(() => undefined); // a server that is gone needs no cancellation
        reject(error);
      };
      const onAbort = (): void => {
        if (this.pending.has(id)) giveUp(new UpstreamCallError('cancelled', 'the call was cancelled'));
      };
      this.pending.set(id, {
        resolve: (result) => (settle(), resolve(result)),
        reject: (error) => (settle(), reject(error)),
        giveUp,
        deadline: performance.now() + this.timeoutMs,
      });
      if (!this.timer) this.arm(this.timeoutMs);
      this.transport
        .send({ jsonrpc: '2.0', id, method: 'tools/call', params: request })
        .catch((err: Error) => this.pending.get(id)?.reject(new UpstreamCallError('closed', err.message)));
      // Hooked once the request is written (on stdio, synchronously): nothing can abort in between.
      signal.addEventListener('abort', onAbort);
    });
  }

  private settle(id: string, message: JSONRPCMessage): true {
    const call = this.pending.get(id);
    if (!call) return true; // answered after we gave up on it
    const { result, error } = message as { result?: unknown; error?: { code?: unknown; message?: unknown } };
    if (error !== undefined) {
      call.reject(new UpstreamCallError('refused', `MCP error ${String(error.code)}: ${String(error.message)}`));
    } else if (isCallToolResult(result)) {
      call.resolve(result);
    } else {
      call.reject(new UpstreamCallError('malformed', 'the server answered with something that is not a tool result'));
    }
    return true;
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => this.expire(), ms);
    this.timer.unref();
  }

  /** Times out every call past its deadline, then waits for the next one's. */
  private expire(): void {
    this.timer = undefined;
    const now = performance.now();
    for (const call of [...this.pending.values()]) {
      if (call.deadline > now) return this.arm(call.deadline - now);
      call.giveUp(new UpstreamCallError('timeout', `no answer within ${this.timeoutMs} ms`));
    }
  }
}

function isCallToolResult(result: unknown): result is ToolResult {
  if (typeof result !== 'object' || result === null) return false;
  const content = (result as { content?: unknown }).content;
  if (!Array.isArray(content)) return false;
  for (const item of content) {
    if (typeof item !== 'object' || item === null || typeof (item as { type?: unknown }).type !== 'string')
      return false;
  }
  return true;
}
