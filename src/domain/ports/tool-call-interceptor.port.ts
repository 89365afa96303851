import type { ToolDefinition } from '../model/tool-definition';
import type { PolicyDecision } from '../policy/policy.model';
import type { ToolResult } from '../model/tool-result';
import type { ToolCallContext, ToolScope } from './tool-scope';

export interface ToolCall {
  tool: ToolDefinition;
  args: Record<string, unknown>;
  ctx: ToolCallContext;
  /** What the step's policy decided, set by the policy interceptor for the inner ones to record. */
  policy?: PolicyDecision;
  /**
   * The answer of a refused call, set by an interceptor that refuses it (the policy) before it
   * calls `next()`: the inner interceptors still record the call, and the tool does not run.
   */
  refused?: ToolResult;
  /**
   * Run by the router with the tool's result before any interceptor sees it: for an outer
   * interceptor whose record depends on what the tool did (the policy's path rules).
   */
  afterTool?: (result: ToolResult) => void;
}

/**
 * Middleware around every tool call, on every path (`mcp-serve` and in-process agents):
 * tracing, logging, audit, masking, policy. `next()` runs the rest of the chain and the
 * tool; it never rejects (failures arrive as `isError` results). An interceptor that refuses a
 * call sets `refused` and still calls `next()`, so the call is recorded; it must not throw.
 * Lower `order` runs outermost. Register with `@InterceptsToolCalls()`.
 */
export interface ToolCallInterceptor {
  readonly order: number;
  intercept(call: ToolCall, next: () => Promise<ToolResult>): Promise<ToolResult>;
  /** Narrows what `tools/list` offers for a scope (the router applies it once, at open). */
  filterTools?(tools: readonly ToolDefinition[], scope: ToolScope): readonly ToolDefinition[];
}
