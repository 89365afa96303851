import type { ToolDefinition } from '../model/tool-definition';
import type { ToolResult } from '../model/tool-result';
import type { ToolCallContext, ToolScope } from './tool-scope';

/**
 * A source of tools: the built-ins, a plugin's operations, or a user module's own tools.
 *
 * Contract:
 * - `listTools(scope)` returns the tools this provider serves in that scope (`[]` for none,
 *   e.g. built-ins when `interceptBuiltins` is off). Names must match `TOOL_NAME_PATTERN`
 *   and be unique across all providers: the router refuses to serve on a collision.
 * - `callTool` receives only names this provider listed. `args` is always an object (an
 *   absent or non-object `arguments` arrives as `{}`).
 * - A failure the agent can act on (missing file, bad argument) is a result with
 *   `isError: true`. A thrown error or rejection is also turned into such a result by the
 *   router, so a provider can never take the server down.
 * - Processes or channels a provider starts are its own to stop (Nest `onModuleDestroy`).
 * - `close(scope)`, when present, is called once when a dispatcher opened on `scope` closes:
 *   release what was started for that scope only (another dispatcher may share the
 *   provider). It must not throw; the router ignores its failures.
 * - `watchTools(scope, onChange)`, when present, is called once when a router opens on
 *   `scope`: a provider whose tools can change while it serves (an upstream MCP server that
 *   sends `tools/list_changed`) calls `onChange` after each change. The router then calls
 *   `listTools(scope)` again, checks the names as at open, applies the interceptors' filters
 *   (the policy) and tells its clients. Stop calling it after `close(scope)`.
 *
 * Register a provider by decorating its class with `@ProvidesTools()` and listing it in a
 * Nest module's `providers`: the router finds it; nothing else needs editing.
 */
export interface ToolProvider {
  listTools(scope: ToolScope): Promise<ToolDefinition[]> | ToolDefinition[];
  callTool(name: string, args: Record<string, unknown>, ctx: ToolCallContext): Promise<ToolResult>;
  close?(scope: ToolScope): Promise<void> | void;
  watchTools?(scope: ToolScope, onChange: () => void): void;
}
