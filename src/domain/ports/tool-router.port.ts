import type { ToolDefinition } from '../model/tool-definition';
import type { ToolResult } from '../model/tool-result';
import type { ToolCallContext } from './tool-scope';

/** What reaches a provider of the call besides its arguments (`ctx.onProgress`, `ctx.onLog`, `ctx.elicit`). */
export type ToolCallOptions = Partial<Pick<ToolCallContext, 'signal' | 'onProgress' | 'onLog' | 'elicit'>>;

/**
 * The tools of one scope, ready to call: what the MCP server and in-process agents
 * (openai_compatible) talk to. Implemented by the application's ToolRouterService.
 *
 * - `list()` is sorted by name. It changes only when a provider's tools change (an upstream
 *   server's `tools/list_changed`); then every `onToolsChanged` listener is told, after
 *   `list()` already gives the new tools. A change that would break the table (a collision)
 *   is refused and the tools served before stay.
 * - `call()` resolves with an `isError` result for every tool failure; it rejects only
 *   with `USER.MCP_PROXY.UNKNOWN_TOOL` for a name that is not listed.
 */
export interface ToolRouter {
  list(): readonly ToolDefinition[];
  call(name: string, args: unknown, options?: ToolCallOptions): Promise<ToolResult>;
  /** Calls `listener` after each change of `list()`; returns what stops it. Absent: the tools never change. */
  onToolsChanged?(listener: () => void): () => void;
  /** Stops what `open` started for this scope. Idempotent. */
  close(): Promise<void>;
}
