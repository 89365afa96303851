export interface TextContent {
  type: 'text';
  text: string;
}

/**
 * The outcome of one tool call. A failure the agent can act on is a result with
 * `isError: true`, never a thrown error: the model reads the text and tries again.
 */
export interface ToolResult {
  content: TextContent[];
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
  return result.content.map((c) => c.text).join('\n');
}
