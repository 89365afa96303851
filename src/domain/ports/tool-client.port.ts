import type { ToolResult } from '../model/tool-result';
import type { ProxyInjection } from './agent-provider.port';

/** An MCP client session on a step's proxy, as an agent would hold it. */
export interface ToolClientSession {
  listTools(): Promise<{ name: string; description?: string }[]>;
  /** Tool failures and unknown tools both come back as `isError` results. */
  callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult>;
  /** Ends the session and the server process it started. Idempotent. */
  close(): Promise<void>;
  /** The last lines the server wrote on stderr, for error messages. */
  stderrTail(): string;
}

/**
 * Starts the injection's command (`awf mcp-serve --config=…`) and speaks MCP to it over
 * stdio. Rejects with `EXECUTION.AGENT.FAILED` when the server does not come up.
 */
export interface ToolClientConnector {
  connect(
    injection: ProxyInjection,
    options: { cwd: string; env: Readonly<Record<string, string>> },
  ): Promise<ToolClientSession>;
}

export const TOOL_CLIENT_CONNECTOR = Symbol.for('awf.ToolClientConnector');
