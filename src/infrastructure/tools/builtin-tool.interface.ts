import type { ToolInputSchema } from '../../domain/model/tool-definition';
import type { ToolResult } from '../../domain/model/tool-result';
import type { ToolCallContext } from '../../domain/ports/tool-scope';

/** MCP's ToolAnnotations hints, all four always given for a built-in (the spec's defaults are the unsafe ones). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * One built-in tool: its advertised name, description and schema, and the handler.
 * `run` may throw `ToolFailure` for anything the agent can fix; the provider maps it.
 */
export interface BuiltinTool {
  readonly name: string;
  /** What a client shows, and the MCP hints it decides auto-approval by. */
  readonly title: string;
  readonly annotations: ToolAnnotations;
  readonly description: string;
  readonly inputSchema: ToolInputSchema;
  run(args: Record<string, unknown>, ctx: ToolCallContext): Promise<ToolResult>;
}
