import type { ToolDefinition } from '../model/tool-definition';
import type { PolicyDecision } from '../policy/policy.model';
import type { ToolResult } from '../model/tool-result';
import type { ToolCallContext, ToolScope } from './tool-scope';

export interface ToolCall {
  tool: ToolDefinition;
  args: Record<string, unknown>;
  ctx: ToolCallContext;
  /** What the step's policy decided, set by the policy interceptor for the outer ones to record. */
  policy?: PolicyDecision;
}

/**
 * Middleware around every tool call, on every path (`mcp-serve` and in-process agents):
 * tracing, logging, audit, masking, policy. `next()` runs the rest of the chain and the
 * tool; it never rejects (failures arrive as `isError` results). An interceptor may
 * return its own result instead of calling `next()` (a denial), and must not throw.
 * Lower `order` runs outermost. Register with `@InterceptsToolCalls()`.
 */
export interface ToolCallInterceptor {
  readonly order: number;
  intercept(call: ToolCall, next: () => Promise<ToolResult>): Promise<ToolResult>;
  /** Narrows what `tools/list` offers for a scope (the router applies it once, at open). */
  filterTools?(tools: readonly ToolDefinition[], scope: ToolScope): readonly ToolDefinition[];
}
