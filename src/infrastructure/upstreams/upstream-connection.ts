import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { withStderrTail } from '../../domain/errors/stderr-tail';
import type { ToolResult } from '../../domain/model/tool-result';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import { DEFAULT_UPSTREAM_TIMEOUT_MS, type UpstreamServerSpec } from '../../domain/proxy/upstream-server';
import { AWF_VERSION } from '../../version';
import { expandedServer } from '../../domain/proxy/upstream-variables';
import { UpstreamCallError, type UpstreamCallOptions, UpstreamCalls } from './upstream-calls';
import { bounded, connectRemote } from './upstream-remote';
import { upstreamSdk } from './upstream-sdk';
import { UpstreamStdioTransport } from './upstream-stdio.transport';

const START_TIMEOUT_MS = 30_000;

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
  private calls?: UpstreamCalls;

  private constructor(
    readonly spec: UpstreamServerSpec,
    private readonly client: Client,
    private readonly stdio?: UpstreamStdioTransport,
  ) {}

  /** Our calls' responses and progress are taken off the transport (ADR 237); the rest goes to the Client. */
  private tap(): void {
    const transport = this.client.transport;
    const inner = transport?.onmessage;
    if (!transport || !inner) return;
    const calls = new UpstreamCalls(transport, this.spec.timeout_ms ?? DEFAULT_UPSTREAM_TIMEOUT_MS);
    this.calls = calls;
    transport.onmessage = (message, extra) => {
      if (!calls.take(message)) inner.call(transport, message, extra);
    };
    const closed = transport.onclose;
    transport.onclose = () => {
      calls.closed();
      closed?.call(transport);
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
        const remote = await connectRemote(sdk, new URL(server.url!), server.headers ?? {}, timeout, client, log);
        connection = new UpstreamConnection(spec, remote);
      }
      connection.log = log;
      connection.tap();
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

  /** Rejects with an UpstreamCallError when no result comes (timeout, cancellation, a crash, an error answer). */
  call(name: string, args: Record<string, unknown>, options: UpstreamCallOptions): Promise<ToolResult> {
    return this.calls
      ? this.calls.call(name, args, options)
      : Promise.reject(new UpstreamCallError('closed', 'not connected'));
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

  /**
   * Every page, by the Client's plain request: its `listTools` would also compile a validator
   * for each output schema, for a `callTool` we do not use (ADR 237).
   */
  private async listAll(timeout: number): Promise<Tool[]> {
    const schema = upstreamSdk().ListToolsResultSchema;
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client.request(
        { method: 'tools/list', params: cursor ? { cursor } : undefined },
        schema,
        { timeout },
      );
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }
}
