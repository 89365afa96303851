/** JSON Schema of a tool's arguments. MCP requires the root to be an object schema. */
export interface ToolInputSchema {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: string[];
  [key: string]: unknown;
}

/**
 * A tool as an agent sees it. `source` says where it comes from — `builtin`,
 * `plugin:<name>`, `mcp:<server>` or `module:<name>` — and appears in logs, spans and collision errors.
 */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: ToolInputSchema;
  source: string;
  /** Passed on as MCP has them, when a source has them (other MCP servers). */
  title?: string;
  outputSchema?: ToolInputSchema;
  annotations?: Record<string, unknown>;
  /**
   * Set when the tool differs from what awf pinned of it (ADR 253): why, naming the command that
   * re-pins it. The policy hides such a tool and refuses its calls with POLICY.TOOL_CHANGED.
   */
  changed?: string;
}

/** What MCP clients accept as a tool name (the strictest common rule among agent CLIs). */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
