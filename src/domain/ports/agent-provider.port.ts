import type { ToolRouter } from './tool-router.port';

/** How an agent reaches the step's proxy. Built by ToolProxyService.start(). */
export interface ProxyInjection {
  /** MCP server name agents see: tools appear as e.g. `mcp__awf-proxy__Read` in Claude Code. */
  serverName: string;
  /** Absolute executable (node) and its arguments: `<awf main.js> mcp-serve --config=<file>`. */
  command: string;
  args: string[];
  /** Environment the server needs when an agent CLI does not forward its own. */
  env: Record<string, string>;
  configPath: string;
  interceptBuiltins: boolean;
  /** In-process tools, for providers that run the tool loop themselves (openai_compatible). */
  dispatcher?: ToolRouter;
}

export interface ConversationTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** Set when a step continues a conversation or starts one with a system prompt. */
export interface AgentConversation {
  /** The agent's session to resume (the earlier step's, or this step's previous turn); absent on a first turn. */
  sessionId?: string;
  /** The earlier turns, oldest first: what a provider without server-side sessions sends again. */
  turns: ConversationTurn[];
  /** The step's `system_prompt`, on a first turn only. */
  systemPrompt?: string;
}

/**
 * A tool the agent ran on its own, around the proxy and its policy (coexistence mode), as its
 * CLI reported it in its JSON event stream. Reported once when seen starting and again when done.
 */
export interface NativeToolUse {
  /** The CLI's own name for it: Codex `command_execution`, OpenCode `bash`, `mcp:<server>/<tool>`. */
  tool: string;
  /** Unique within one run of the CLI: the start and the end of one use share it. */
  id: string;
  /** Argument name → size (string or array length, else the type name): never the values. */
  argsShape: Record<string, number | string>;
  status: 'running' | 'ok' | 'error';
  /** Epoch milliseconds, when the CLI says (OpenCode does); else the time it was seen. */
  startedAt?: number;
  endedAt?: number;
}

export interface AgentRunRequest {
  workflow: string;
  step: string;
  runId: string;
  prompt: string;
  options: Readonly<Record<string, unknown>>;
  cwd: string;
  /** 0 or absent: no timeout beyond the signal. */
  timeoutMs?: number;
  signal: AbortSignal;
  env: Readonly<Record<string, string>>;
  proxy?: ProxyInjection;
  conversation?: AgentConversation;
  /** Told of each native tool use as the CLI reports it (providers whose CLI can report them). */
  onNativeToolUse?: (use: NativeToolUse) => void;
}

export interface AgentRunResult {
  /** The agent's final text: the step's `Output`. */
  output: string;
  exitCode: number;
  tokens?: { input?: number; output?: number };
  costUsd?: number;
  /** Raw transcript or JSON, kept for `-f json` and debugging. */
  raw?: unknown;
  /** The agent's session, when its CLI reported one: a later step can resume it. */
  sessionId?: string;
}

/**
 * One kind of agent (`provider:` in a workflow step).
 *
 * Contract: `run` resolves with the agent's answer, or rejects with an AwfError whose
 * code is `EXECUTION.AGENT.*` (missing binary, non-zero exit, timeout) carrying the agent's
 * last stderr lines. Whatever it started (processes, temp files, registrations) is gone
 * when it settles, including when `signal` aborts.
 * `canInterceptBuiltins` says whether the provider can switch its agent's own tools off.
 * Register with `@ProvidesAgent()`.
 */
export interface AgentProvider {
  readonly name: string;
  readonly canInterceptBuiltins: boolean;
  /**
   * How it continues a conversation: `session` (resumes `conversation.sessionId` with its CLI's
   * resume flag), `history` (sends `conversation.turns` again); absent: it cannot.
   */
  readonly resumes?: 'session' | 'history';
  /**
   * Throws USER.AGENT.INVALID_OPTIONS for `options:` that `run` would refuse, so `awf validate`
   * says so before anything starts. Options holding templates are left out of the check.
   */
  validateOptions?(options: Readonly<Record<string, unknown>>): void;
  run(request: AgentRunRequest): Promise<AgentRunResult>;
}
