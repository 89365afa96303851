import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { withStderrTail } from '../../domain/errors/stderr-tail';
import type { ToolResult } from '../../domain/model/tool-result';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import { DEFAULT_UPSTREAM_TIMEOUT_MS, type UpstreamServerSpec } from '../../domain/proxy/upstream-server';
import { AWF_VERSION } from '../../version';
import { type UpstreamSdk, upstreamSdk } from './upstream-sdk';
import { UpstreamStdioTransport } from './upstream-stdio.transport';
import { expandedServer } from '../../domain/proxy/upstream-variables';

const START_TIMEOUT_MS = 30_000;

export interface UpstreamCallOptions {
  signal: AbortSignal;
  traceparent?: string;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/**
 * One connected upstream MCP server, through the SDK's `Client`: stdio (our transport, see
 * upstream-stdio.transport.ts) or remote (Streamable HTTP, then legacy SSE when the server
 * refuses it, as the SDK's own backwards-compatible clients do). Its tools are listed at
 * connect and again whenever it says `tools/list_changed`.
 */
export class UpstreamConnection {
  tools: Tool[] = [];
  private readonly listeners = new Set<() => void>();
  private closed = false;
  private log?: AppLogger;

  private readonly progress = new Map<string, NonNullable<UpstreamCallOptions['onProgress']>>();
  private nextToken = 0;

  private constructor(
    readonly spec: UpstreamServerSpec,
    private readonly client: Client,
    private readonly stdio?: UpstreamStdioTransport,
  ) {}

  /**
   * Progress is taken off the transport as it arrives. Through the SDK's `onprogress` the last
   * notification before a result is lost: the SDK runs notification handlers a microtask
   * later than it settles the response, whose progress handler is gone by then.
   */
  private tapProgress(): void {
    const transport = this.client.transport;
    const inner = transport?.onmessage;
    if (!transport || !inner) return;
    transport.onmessage = (message, extra) => {
      const m = message as {
        method?: string;
        params?: { progressToken?: unknown; progress?: number; total?: number; message?: string };
      };
      if (
        m.method === 'notifications/progress' &&
        typeof m.params?.progressToken === 'string' &&
        m.params.progressToken.startsWith('awf-')
      ) {
        const { progressToken, ...progress } = m.params;
        this.progress.get(progressToken)?.(progress as { progress: number });
        return;
      }
      inner.call(transport, message, extra);
    };
  }

  static async open(
    spec: UpstreamServerSpec,
    logger: AppLogger,
    env: NodeJS.ProcessEnv = process.env,
  ): Promise<UpstreamConnection> {
    const sdk = upstreamSdk();
    const server = expandedServer(spec, env);
    // A cold start (npx, a container) often takes longer than one call may: never less than START_TIMEOUT_MS.
    const timeout = Math.max(spec.timeout_ms ?? DEFAULT_UPSTREAM_TIMEOUT_MS, START_TIMEOUT_MS);
    let connection: UpstreamConnection | undefined;
    const client = (): Client =>
      new sdk.Client(
        { name: 'awf-mcp-proxy', version: AWF_VERSION },
        {
          // Not the SDK's own refresh: it reads one page only. We list every page (listAll).
          listChanged: { tools: { autoRefresh: false, onChanged: () => void connection?.relist(timeout) } },
        },
      );
    const log = logger.child({ upstream: spec.name });
    try {
      if (server.command) {
        const stdio = new UpstreamStdioTransport(
          {
            command: server.command,
            args: server.args ?? [],
            env: { ...sdk.getDefaultEnvironment(), ...server.env },
            cwd: server.cwd,
          },
          sdk,
          log,
        );
        connection = new UpstreamConnection(spec, client(), stdio);
        await bounded(connection.client.connect(stdio, { timeout }), timeout, () => stdio.close());
      } else {
        connection = await connectRemote(sdk, spec, new URL(server.url!), server.headers ?? {}, timeout, client, log);
      }
      connection.log = log;
      connection.tapProgress();
      connection.tools = await connection.listAll(timeout);
      log.debug({ tools: connection.tools.length, pid: connection.stdio?.pid }, 'upstream server connected');
      return connection;
    } catch (err) {
      await connection?.close();
      if (err instanceof AwfError) throw err;
      const how = connection?.stdio && !connection.stdio.alive ? ` (it ${connection.stdio.describeExit()})` : '';
      throw new AwfError(
        ErrorCodes.UPSTREAM_START_FAILED,
        withStderrTail(
          `MCP server "${spec.name}" failed to start${how}: ${(err as Error).message}`,
          connection?.stderrTail() ?? [],
        ),
        { server: spec.name, ...(spec.command ? { command: spec.command } : { url: spec.url }) },
        spec.command
          ? `Run \`${spec.command} ${(spec.args ?? []).join(' ')}\` by hand to see why.`
          : 'Check the url and that the server is up.',
      );
    }
  }

  /** A remote server's connection that closed on its own counts as a crash: the next call reconnects. */
  get alive(): boolean {
    return this.stdio ? this.stdio.alive : !this.closed && this.client.transport !== undefined;
  }

  /** Calls `listener` each time the server changed its tools and `tools` holds the new list; returns the unwatch. */
  watch(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async call(name: string, args: Record<string, unknown>, options: UpstreamCallOptions): Promise<ToolResult> {
    const timeout = this.spec.timeout_ms ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
    const token = options.onProgress ? `awf-${++this.nextToken}` : undefined;
    const params: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, string> } = {
      name,
      arguments: args,
    };
    if (token || options.traceparent) {
      params._meta = {};
      if (options.traceparent) params._meta.traceparent = options.traceparent;
      if (token) params._meta.progressToken = token;
    }
    if (token) this.progress.set(token, options.onProgress!);
    try {
      return (await this.client.callTool(params, undefined, {
        signal: options.signal,
        timeout,
      })) as unknown as ToolResult;
    } finally {
      if (token) this.progress.delete(token);
    }
  }

  /** Resolves when the server process has ended, or after `ms` (remote servers: at once). */
  exited(ms: number): Promise<void> {
    return this.stdio ? this.stdio.exited(ms) : Promise.resolve();
  }

  stderrTail(): string[] {
    return this.stdio?.stderrTail() ?? [];
  }

  describeExit(): string {
    return this.stdio?.describeExit() ?? 'closed its connection';
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.close().catch(() => undefined);
    await this.stdio?.close();
  }

  /** The server said tools/list_changed: list again; a listing that fails keeps the tools we had. */
  private async relist(timeout: number): Promise<void> {
    if (this.closed) return;
    try {
      this.tools = await this.listAll(timeout);
    } catch (err) {
      this.log?.warn({ reason: (err as Error).message }, 'MCP server changed its tools but listing them failed');
      return;
    }
    this.log?.info({ tools: this.tools.length }, 'MCP server changed its tools');
    for (const listener of this.listeners) listener();
  }

  private async listAll(timeout: number): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client.listTools(cursor ? { cursor } : undefined, { timeout });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  static remote(spec: UpstreamServerSpec, client: Client): UpstreamConnection {
    return new UpstreamConnection(spec, client);
  }
}

/** Streamable HTTP first; a server that refuses it (a 4xx to the POST) is tried over legacy SSE. */
async function connectRemote(
  sdk: UpstreamSdk,
  spec: UpstreamServerSpec,
  url: URL,
  headers: Record<string, string>,
  timeout: number,
  client: () => Client,
  log: AppLogger,
): Promise<UpstreamConnection> {
  const requestInit = { headers };
  const first = client();
  try {
    await bounded(first.connect(new sdk.StreamableHTTPClientTransport(url, { requestInit }), { timeout }), timeout);
    return UpstreamConnection.remote(spec, first);
  } catch (err) {
    await first.close().catch(() => undefined);
    const status = (err as { code?: unknown }).code;
    if (err instanceof AwfError || !(typeof status === 'number' && status >= 400 && status < 500)) throw err;
    log.debug({ reason: (err as Error).message }, 'Streamable HTTP refused; trying the legacy SSE transport');
  }
  const second = client();
  await bounded(
    second.connect(
      new sdk.SSEClientTransport(url, {
        requestInit,
        eventSourceInit: {
          fetch: (u, init) =>
            fetch(u, { ...init, headers: { ...headers, ...(init?.headers as Record<string, string>) } }),
        },
      }),
      { timeout },
    ),
    timeout,
  );
  return UpstreamConnection.remote(spec, second);
}

/** A start that does not finish within the server's timeout fails, naming it. */
async function bounded<T>(promise: Promise<T>, ms: number, onTimeout?: () => Promise<void>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void onTimeout?.();
      reject(new Error(`no answer to initialize within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([promise, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
