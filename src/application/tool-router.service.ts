import { randomUUID } from 'node:crypto';
import { AwfError } from '../domain/errors/awf-error';
import { ErrorCodes } from '../domain/errors/error-codes';
import type { ToolDefinition } from '../domain/model/tool-definition';
import { errorResult, type ToolResult } from '../domain/model/tool-result';
import type { ToolCall, ToolCallInterceptor } from '../domain/ports/tool-call-interceptor.port';
import type { ToolCallOptions, ToolRouter } from '../domain/ports/tool-router.port';
import type { ToolProvider } from '../domain/ports/tool-provider.port';
import type { ToolScope } from '../domain/ports/tool-scope';
import { isPlainObject } from '../domain/model/plain-object';
import { type Listed, offeredTools, type Route, routeTable } from './tool-routes';

/**
 * Merges the tools of every provider for one scope and dispatches calls through the
 * interceptor chain. Building is all-or-nothing: an invalid or duplicate name fails
 * before anything is served. A provider that says its tools changed is listed again; the
 * new table replaces the served one only if it is valid, and listeners are told.
 */
export class ToolRouterService implements ToolRouter {
  private closed = false;
  private routes: ReadonlyMap<string, Route>;
  private tools: readonly ToolDefinition[];
  private readonly listeners = new Set<() => void>();
  /** Every provider that has served a tool here: each is told when the router closes. */
  private readonly served = new Set<ToolProvider>();
  /** Changes are applied one at a time, in the order providers reported them. */
  private relisting: Promise<void> = Promise.resolve();

  private constructor(
    private listed: readonly Listed[],
    private readonly scope: ToolScope,
    private readonly interceptors: readonly ToolCallInterceptor[],
    private readonly onClose: () => Promise<void>,
    private readonly onRefusedChange: (err: unknown) => void,
  ) {
    this.routes = routeTable(listed);
    this.tools = offeredTools(this.routes, interceptors, scope);
    for (const route of this.routes.values()) this.served.add(route.provider);
  }

  /**
   * `onRefusedChange` hears of a changed list that cannot be served (a collision, an invalid
   * name, a listing that failed): the tools served before stay.
   */
  static async open(
    providers: readonly ToolProvider[],
    scope: ToolScope,
    interceptors: readonly ToolCallInterceptor[] = [],
    onClose: () => Promise<void> = async () => {},
    onRefusedChange: (err: unknown) => void = () => {},
  ): Promise<ToolRouterService> {
    const listed = await Promise.all(
      providers.map(async (provider) => ({ provider, tools: await provider.listTools(scope) })),
    );
    const ordered = [...interceptors].sort((a, b) => a.order - b.order);
    const router = new ToolRouterService(listed, scope, ordered, onClose, onRefusedChange);
    for (const provider of providers) {
      if (!provider.watchTools) continue;
      router.served.add(provider); // it may serve tools later: it hears close() too
      provider.watchTools(scope, () => router.changed(provider));
    }
    return router;
  }

  onToolsChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  list(): readonly ToolDefinition[] {
    return this.tools;
  }

  /** A provider's tools changed: list it again and serve the new table if it is valid. */
  private changed(provider: ToolProvider): void {
    this.relisting = this.relisting.then(async () => {
      if (this.closed) return;
      try {
        const tools = await provider.listTools(this.scope);
        const listed = this.listed.map((l) => (l.provider === provider ? { provider, tools } : l));
        const routes = routeTable(listed);
        this.listed = listed;
        this.routes = routes;
        this.tools = offeredTools(routes, this.interceptors, this.scope);
        if (tools.length > 0) this.served.add(provider);
      } catch (err) {
        this.onRefusedChange(err);
        return;
      }
      for (const listener of this.listeners) listener();
    });
  }

  /** Not async: returning the chain's own promise saves the two microtasks an async function adds to adopt it. */
  call(name: string, args: unknown, options: ToolCallOptions = {}): Promise<ToolResult> {
    const route = this.routes.get(name);
    if (!route) {
      return Promise.reject(
        new AwfError(
          ErrorCodes.TOOL_UNKNOWN,
          `unknown tool "${name}"`,
          { tool: name },
          'Call tools/list for the tools this proxy serves.',
        ),
      );
    }
    const call: ToolCall = {
      tool: route.tool,
      args: isPlainObject(args) ? args : {},
      ctx: {
        scope: this.scope,
        signal: options.signal ?? new AbortController().signal,
        callId: randomUUID(),
        onProgress: options.onProgress,
        onLog: options.onLog,
        elicit: options.elicit,
      },
    };
    const fail = toErrorResult(name);
    const invoke = (index: number): Promise<ToolResult> => {
      if (index === this.interceptors.length) {
        if (call.refused) return Promise.resolve(call.refused);
        const ran = runProvider(route.provider, call);
        const after = call.afterTool;
        return after ? ran.then((result) => (after(result), result)) : ran;
      }
      // Interceptors need not be async: a synchronous throw becomes an error result at its own
      // level, like a rejection does. A pass-through hands back the promise of the level inside,
      // which never rejects, so it gets no catch of its own (a promise and a microtask less each way).
      let inner: Promise<ToolResult> | undefined;
      try {
        const result = this.interceptors[index].intercept(call, () => (inner = invoke(index + 1)));
        return result === inner ? result : result.catch(fail);
      } catch (err) {
        return Promise.resolve(fail(err));
      }
    };
    return invoke(0);
  }

  /** Tells each provider that served this scope that it is over, so it can stop what it started for it. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([...this.served].map(async (provider) => provider.close?.(this.scope)));
    await this.onClose();
  }
}

async function runProvider(provider: ToolProvider, call: ToolCall): Promise<ToolResult> {
  try {
    const result = await provider.callTool(call.tool.name, call.args, call.ctx);
    if (!result || !Array.isArray(result.content)) {
      return errorResult(`tool "${call.tool.name}" returned no result`);
    }
    return result;
  } catch (err) {
    return toErrorResult(call.tool.name)(err);
  }
}

function toErrorResult(name: string) {
  return (err: unknown): ToolResult => {
    const message = err instanceof Error ? err.message : String(err);
    const hint = err instanceof AwfError && err.hint ? `\n${err.hint}` : '';
    return errorResult(`${name} failed: ${message}${hint}`);
  };
}
