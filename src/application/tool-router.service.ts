import { randomUUID } from 'node:crypto';
import { AwfError } from '../domain/errors/awf-error';
import { ErrorCodes } from '../domain/errors/error-codes';
import { TOOL_NAME_PATTERN, type ToolDefinition } from '../domain/model/tool-definition';
import { errorResult, type ToolResult } from '../domain/model/tool-result';
import type { ToolCall, ToolCallInterceptor } from '../domain/ports/tool-call-interceptor.port';
import type { ToolCallOptions, ToolRouter } from '../domain/ports/tool-router.port';
import type { ToolProvider } from '../domain/ports/tool-provider.port';
import type { ToolScope } from '../domain/ports/tool-scope';
import { isPlainObject } from '../domain/model/plain-object';

interface Route {
  tool: ToolDefinition;
  provider: ToolProvider;
}

/**
 * Merges the tools of every provider for one scope and dispatches calls through the
 * interceptor chain. Building is all-or-nothing: an invalid or duplicate name fails
 * before anything is served.
 */
export class ToolRouterService implements ToolRouter {
  private closed = false;

  private constructor(
    private readonly routes: ReadonlyMap<string, Route>,
    private readonly scope: ToolScope,
    private readonly interceptors: readonly ToolCallInterceptor[],
    private readonly onClose: () => Promise<void>,
    private readonly tools: readonly ToolDefinition[],
  ) {}

  static async open(
    providers: readonly ToolProvider[],
    scope: ToolScope,
    interceptors: readonly ToolCallInterceptor[] = [],
    onClose: () => Promise<void> = async () => {},
  ): Promise<ToolRouterService> {
    const listed = await Promise.all(
      providers.map(async (provider) => ({ provider, tools: await provider.listTools(scope) })),
    );
    const routes = new Map<string, Route>();
    for (const { provider, tools } of listed) {
      for (const tool of tools) {
        if (!TOOL_NAME_PATTERN.test(tool.name)) {
          throw new AwfError(
            ErrorCodes.MCP_PROXY_INVALID_TOOL_NAME,
            `tool name "${tool.name}" from ${tool.source} is not allowed: names must match ${TOOL_NAME_PATTERN.source}`,
            { tool: tool.name, source: tool.source },
            'Rename the tool or the plugin so the name uses only letters, digits, "_" and "-", at most 64 characters.',
          );
        }
        const taken = routes.get(tool.name);
        if (taken) {
          throw new AwfError(
            ErrorCodes.MCP_PROXY_NAME_COLLISION,
            `tool "${tool.name}" is served by both ${taken.tool.source} and ${tool.source}`,
            { tool: tool.name, sources: [taken.tool.source, tool.source] },
            'Expose the tool from only one source, or rename one of them.',
          );
        }
        routes.set(tool.name, { tool, provider });
      }
    }
    const ordered = [...interceptors].sort((a, b) => a.order - b.order);
    // What an interceptor filters out is not offered, yet still routed: a call to it reaches
    // the chain and gets that interceptor's coded refusal, not an "unknown tool".
    let offered: readonly ToolDefinition[] = [...routes.values()]
      .map((r) => r.tool)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const interceptor of ordered) if (interceptor.filterTools) offered = interceptor.filterTools(offered, scope);
    return new ToolRouterService(routes, scope, ordered, onClose, offered);
  }

  list(): readonly ToolDefinition[] {
    return this.tools;
  }

  async call(name: string, args: unknown, options: ToolCallOptions = {}): Promise<ToolResult> {
    const route = this.routes.get(name);
    if (!route) {
      throw new AwfError(
        ErrorCodes.TOOL_UNKNOWN,
        `unknown tool "${name}"`,
        { tool: name },
        'Call tools/list for the tools this proxy serves.',
      );
    }
    const call: ToolCall = {
      tool: route.tool,
      args: isPlainObject(args) ? args : {},
      ctx: {
        scope: this.scope,
        signal: options.signal ?? new AbortController().signal,
        callId: randomUUID(),
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      },
    };
    const fail = toErrorResult(name);
    const invoke = (index: number): Promise<ToolResult> => {
      if (index === this.interceptors.length) return runProvider(route.provider, call);
      // Interceptors need not be async (a pass-through adds no promise): a synchronous throw
      // becomes an error result at its own level, like a rejection does.
      try {
        return this.interceptors[index].intercept(call, () => invoke(index + 1)).catch(fail);
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
    const providers = new Set([...this.routes.values()].map((r) => r.provider));
    await Promise.allSettled([...providers].map(async (provider) => provider.close?.(this.scope)));
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
