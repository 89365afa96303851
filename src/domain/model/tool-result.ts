export interface TextContent {
  type: 'text';
  text: string;
}

/** What else MCP results carry (from other MCP servers, passed through as they are). */
export interface OtherContent {
  type: 'image' | 'audio' | 'resource' | 'resource_link';
  [key: string]: unknown;
}

export type ToolContent = TextContent | OtherContent;

/**
 * The outcome of one tool call. A failure the agent can act on is a result with
 * `isError: true`, never a thrown error: the model reads the text and tries again.
 */
export interface ToolResult {
  content: ToolContent[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
}

export function textResult(text: string): ToolResult {
  return { content: [{ type: 'text', text }] };
}

export function errorResult(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

export function resultText(result: ToolResult): string {
  return result.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
}
