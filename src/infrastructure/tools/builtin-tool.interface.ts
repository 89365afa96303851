import type { ToolInputSchema } from '../../domain/model/tool-definition';
import type { ToolResult } from '../../domain/model/tool-result';
import type { ToolCallContext } from '../../domain/ports/tool-scope';

/**
 * One built-in tool: its advertised name, description and schema, and the handler.
 * `run` may throw `ToolFailure` for anything the agent can fix; the provider maps it.
 */
export interface BuiltinTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: ToolInputSchema;
  run(args: Record<string, unknown>, ctx: ToolCallContext): Promise<ToolResult>;
}
