// The one file of awf's upstream side that imports the MCP SDK (`@modelcontextprotocol/client`).
import {
  Client,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  StreamableHTTPClientTransport,
  type Tool,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { StdioClientTransport, type StdioServerParameters } from '@modelcontextprotocol/client/stdio';
import type { Readable } from 'node:stream';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { withStderrTail } from '../../domain/errors/stderr-tail';
import type { ToolResult } from '../../domain/model/tool-result';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import { DEFAULT_UPSTREAM_TIMEOUT_MS, type UpstreamServerSpec } from '../../domain/proxy/upstream-server';
import { expandedServer } from '../../domain/proxy/upstream-variables';
import { AWF_VERSION } from '../../version';
import { dieWithParent } from '../core/child-orphan.guard';
import { UpstreamCallChannels } from './upstream-call-channels';
import { UpstreamProcess } from './upstream-process';
import { connectRemote, type RemoteAuth, type RemoteSignIn } from './upstream-remote';
import { UpstreamCallError, type UpstreamCallOptions, type UpstreamTool } from './upstream-result';

const START_TIMEOUT_MS = 30_000;

/** The SDK's stdio transport, handing awf the process it spawns (it keeps it private; awf needs its exit). */
class ServerStdioTransport extends StdioClientTransport {
  readonly process: UpstreamProcess;

  constructor(params: StdioServerParameters, log: AppLogger) {
    super({ ...params, stderr: 'pipe' });
    this.process = new UpstreamProcess(this.stderr as Readable | null, log);
  }

  override async start(): Promise<void> {
    await super.start();
    this.process.started(this['_process']);
  }
}

/**
 * One connected upstream MCP server, through the SDK `Client`'s own request path: stdio (the
 * SDK transport, launched under the parent-death signal of ADR 081) or remote (Streamable HTTP;
 * legacy SSE only when the first POST gets 400, 404 or 405). Its tools are listed at connect and
 * again whenever it says `tools/list_changed`; the session of a remote server is DELETEd on close.
 */
export class UpstreamConnection {
  tools: UpstreamTool[] = [];
  private readonly listeners = new Set<() => void>();
  /** Told the URI of each `notifications/resources/updated` the server sends. */
  readonly resourceUpdates = new Set<(uri: string) => void>();
  private closed = false;

  private constructor(
    readonly spec: UpstreamServerSpec,
    private readonly client: Client,
    private readonly timeout: number,
    private readonly channels: UpstreamCallChannels,
    private readonly process?: UpstreamProcess,
    private readonly signIn?: RemoteSignIn,
  ) {}

  static async open(
    spec: UpstreamServerSpec,
    logger: AppLogger,
    env: NodeJS.ProcessEnv = process.env,
    auth: Omit<RemoteAuth, 'env'> = { signIn: 'browser' },
  ): Promise<UpstreamConnection> {
    const server = expandedServer(spec, env);
    const timeout = spec.timeout_ms ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
    // A cold start (npx, a container) often takes longer than one call may: never less than START_TIMEOUT_MS.
    const startTimeout = Math.max(timeout, START_TIMEOUT_MS);
    const log = logger.child({ upstream: spec.name });
    let connection: UpstreamConnection | undefined;
    const channels = new UpstreamCallChannels(spec.name, log);
    // Over HTTP the client asks `server/discover` first and speaks 2026-07-28 to a server that
    // offers it, else initializes as a 2025 client. Over stdio the SDK would spawn the server a
    // second time to probe it; a stdio server answers `initialize` in every era.
    const client = (remote = false): Client => {
      const made = new Client(
        { name: 'awf-mcp-proxy', version: AWF_VERSION },
        {
          ...(remote ? { versionNegotiation: { mode: 'auto' as const } } : {}),
          capabilities: UpstreamCallChannels.capabilities,
          listChanged: { tools: { debounceMs: 0, onChanged: (err, tools) => connection?.changed(err, tools, log) } },
        },
      );
      channels.attach(made);
      made.setNotificationHandler('notifications/resources/updated', (n) => {
        for (const listener of connection?.resourceUpdates ?? []) listener(n.params.uri);
      });
      return made;
    };
    let stdio: UpstreamProcess | undefined;
    try {
      if (server.command) {
        const launch = dieWithParent(server.command, server.args ?? [], env);
        // The SDK adds its default environment (HOME, PATH…) under the server's own env.
        const transport = new ServerStdioTransport({ ...launch, env: server.env ?? {}, cwd: server.cwd }, log);
        stdio = transport.process;
        connection = new UpstreamConnection(spec, client(), timeout, channels, stdio);
        await connection.client.connect(transport, { timeout: startTimeout });
      } else {
        const remote = await connectRemote(server, startTimeout, () => client(true), log, { ...auth, env });
        connection = new UpstreamConnection(spec, remote.client, timeout, channels, undefined, remote.signIn);
      }
      const c = connection;
      c.tools = (await c.authorized(() => c.client.listTools(undefined, { timeout: startTimeout }))).tools;
      log.debug({ tools: connection.tools.length, pid: stdio?.pid }, 'upstream server connected');
      return connection;
    } catch (err) {
      await connection?.close();
      if (err instanceof AwfError) throw err;
      const how = stdio && !stdio.alive ? ` (it ${stdio.describeExit()})` : '';
      const reason = isTimeout(err) ? `no answer to initialize within ${startTimeout} ms` : describe(err);
      throw new AwfError(
        ErrorCodes.UPSTREAM_START_FAILED,
        withStderrTail(`MCP server "${spec.name}" failed to start${how}: ${reason}`, stdio?.stderrTail() ?? []),
        { server: spec.name, ...(spec.command ? { command: spec.command } : { url: spec.url }) },
        spec.command
          ? `Run \`${spec.command} ${(spec.args ?? []).join(' ')}\` by hand to see why.`
          : 'Check the url and that the server is up.',
      );
    }
  }

  /** A remote server's connection that closed on its own counts as a crash: the next call reconnects. */
  get alive(): boolean {
    return this.process ? this.process.alive : !this.closed && this.client.transport !== undefined;
  }

  /** Calls `listener` each time the server changed its tools and `tools` holds the new list; returns the unwatch. */
  watch(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** `tools/call` by the Client; rejects with an UpstreamCallError when no result comes. */
  async call(name: string, args: Record<string, unknown>, options: UpstreamCallOptions): Promise<ToolResult> {
    const done = this.channels.open(options);
    try {
      const result = await this.authorized(() =>
        this.client.callTool(
          { name, arguments: args, ...(options.traceparent ? { _meta: { traceparent: options.traceparent } } : {}) },
          { signal: options.signal, timeout: this.timeout, onprogress: options.onProgress },
        ),
      );
      return result as ToolResult;
    } catch (err) {
      const why =
        err instanceof UnauthorizedError
          ? `the server asks for sign-in again (run \`awf mcp login ${this.spec.name}\`)`
          : describe(err);
      throw new UpstreamCallError(isTimeout(err) && !options.signal.aborted ? 'timeout' : 'failed', why);
    } finally {
      done();
    }
  }

  /** What the server offers besides tools, as it said at `initialize` (or `server/discover`). */
  get offers(): { prompts: boolean; resources: boolean; subscribe: boolean; completions: boolean } {
    const c = this.client.getServerCapabilities() ?? {};
    return {
      prompts: !!c.prompts,
      resources: !!c.resources,
      subscribe: !!c.resources?.subscribe,
      completions: !!c.completions,
    };
  }

  /** A prompts, resources or completion request passed on as it is; rejects with the server's error. */
  request(method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>> {
    return this.authorized(() =>
      this.client.request({ method: method as 'prompts/list', params }, { signal, timeout: this.timeout }),
    ) as Promise<Record<string, unknown>>;
  }

  /** A request that may need a person to sign in again (a scope step-up), where one can be asked. */
  private authorized<T>(request: () => Promise<T>): Promise<T> {
    return this.signIn ? this.signIn.retrying(() => this.client.transport, request) : request();
  }

  /** Resolves when the server process has ended, or after `ms` (remote servers: at once). */
  exited(ms: number): Promise<void> {
    return this.process ? this.process.exited(ms) : Promise.resolve();
  }

  stderrTail(): string[] {
    return this.process?.stderrTail() ?? [];
  }

  describeExit(): string {
    return this.process?.describeExit() ?? 'closed its connection';
  }

  /** Ends the session: DELETE for Streamable HTTP; stdin closed, then SIGTERM, then SIGKILL for stdio. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const transport = this.client.transport;
    if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => undefined);
    await this.client.close().catch(() => undefined);
    this.signIn?.close();
    await this.process?.exited(1_000);
  }

  /** The Client listed again after tools/list_changed; a listing that failed keeps the tools we had. */
  private changed(err: Error | null, tools: Tool[] | null, log: AppLogger): void {
    if (this.closed) return;
    if (err || !tools) {
      log.warn({ reason: err?.message }, 'MCP server changed its tools but listing them failed');
      return;
    }
    this.tools = tools;
    log.info({ tools: tools.length }, 'MCP server changed its tools');
    for (const listener of this.listeners) listener();
  }
}

function isTimeout(err: unknown): boolean {
  return err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout;
}

/** The error as the agent reads it: an HTTP failure keeps its status and the server's own words. */
function describe(err: unknown): string {
  if (err instanceof SdkHttpError) {
    const text = typeof err.data.text === 'string' && err.data.text.trim() ? err.data.text.trim() : err.message;
    return `HTTP ${err.status}${err.statusText ? ` ${err.statusText}` : ''}: ${text}`;
  }
  return (err as Error).message;
}
