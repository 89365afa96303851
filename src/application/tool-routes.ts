import { AwfError } from '../domain/errors/awf-error';
import { ErrorCodes } from '../domain/errors/error-codes';
import { TOOL_NAME_PATTERN, type ToolDefinition } from '../domain/model/tool-definition';
import type { ToolCallInterceptor } from '../domain/ports/tool-call-interceptor.port';
import type { ToolProvider } from '../domain/ports/tool-provider.port';
import type { ToolScope } from '../domain/ports/tool-scope';

export interface Route {
  tool: ToolDefinition;
  provider: ToolProvider;
}

/** What each provider listed for a scope. */
export interface Listed {
  provider: ToolProvider;
  tools: readonly ToolDefinition[];
}

/**
 * The name → route table of a scope, all or nothing: an invalid or duplicate name throws
 * before anything is served (at open), or before a changed list replaces the served one.
 */
export function routeTable(listed: readonly Listed[]): Map<string, Route> {
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
  return routes;
}

/**
 * The tools offered for `routes`: sorted by name, then narrowed by each interceptor's filter
 * (the policy hides what it denies). What a filter hides is still routed: a call to it reaches
 * the chain and gets that interceptor's coded refusal, not an "unknown tool".
 */
export function offeredTools(
  routes: ReadonlyMap<string, Route>,
  interceptors: readonly ToolCallInterceptor[],
  scope: ToolScope,
): readonly ToolDefinition[] {
  let offered: readonly ToolDefinition[] = [...routes.values()]
    .map((r) => r.tool)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const interceptor of interceptors)
    if (interceptor.filterTools) offered = interceptor.filterTools(offered, scope);
  return offered;
}
