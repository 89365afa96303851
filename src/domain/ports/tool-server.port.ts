import type { ToolRouter } from './tool-router.port';

/** What the serve use case is told while one client is served: for its log. */
export interface ToolServerHooks {
  /** Each frame the edge refused or dropped as malformed, with the reason (never its content). */
  onMalformedFrame?(reason: string): void;
}

/** One client being served one router. */
export interface ToolServerSession {
  /** Settles when the client leaves (its stdin closes, once the calls in flight are answered) or after `stop()`. */
  serve(): Promise<void>;
  /** Ends `serve()`; calls in flight are cancelled. Idempotent. */
  stop(): Promise<void>;
}

/**
 * The protocol edge that exposes a ToolRouter to an agent (MCP over stdio in awf). The edge owns
 * the wire and its framing; the router stays the caller's, who closes it after `serve()` settles.
 */
export interface ToolServerEdge {
  open(router: ToolRouter, hooks?: ToolServerHooks): ToolServerSession;
}

export const TOOL_SERVER_EDGE = Symbol.for('awf.ToolServerEdge');
