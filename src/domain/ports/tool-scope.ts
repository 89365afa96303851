import type { ToolPolicy } from '../policy/tool-policy';
import type { BashSandbox } from '../proxy/bash-sandbox';
import type { PluginToolSpec, ProxyLimits } from '../proxy/proxy-config';
import type { UpstreamServerSpec } from '../proxy/upstream-server';

/**
 * What one proxy serves: built once per agent step (or per `mcp-serve` process) from the
 * step's proxy config, and handed to every ToolProvider. Immutable for the step's life.
 */
export interface ToolScope {
  /** Real, absolute path of the sandbox root. */
  rootDir: string;
  interceptBuiltins: boolean;
  pluginTools: readonly PluginToolSpec[];
  /** The run's project dir (`project_dir`): where `./.awf/plugins` is; absent: the working directory. */
  projectDir?: string;
  /** Other MCP servers whose tools are served (absent: none). */
  upstreams?: readonly UpstreamServerSpec[];
  limits: Readonly<ProxyLimits>;
  /** Bash runs under bubblewrap (limits.bash_sandbox or the policy's bash_sandbox); absent: unconfined. */
  bashSandbox?: Readonly<BashSandbox>;
  workflow?: string;
  step?: string;
  runId?: string;
  /** Absolute audit JSONL of the step (`events_path`): one line per tool call. */
  eventsPath?: string;
  /** W3C traceparent of the step's span: every tool-call span becomes its child. */
  traceparent?: string;
  /** The step's tool policy (docs/policy.md); absent: every served tool, no rules. */
  policy?: ToolPolicy;
  /** Unix socket of the owning `awf run`, where approval questions go. */
  approvalSocket?: string;
  /** Where upstream servers' tool pins are (ADR 253); absent: `<data dir>/mcp-pins` from the environment. */
  pinsDir?: string;
}

/** Per-call context. `signal` aborts when the caller gives up (client cancel, shutdown). */
export interface ToolCallContext {
  scope: ToolScope;
  signal: AbortSignal;
  callId: string;
  /** W3C traceparent of this call's own span (set by tracing when on): for a provider that calls out. */
  traceparent?: string;
  /** Set when the client asked for progress (`_meta.progressToken`): a provider may report it. */
  onProgress?: (progress: ToolProgress) => void;
  /** A log message of the tool's own server for the client (MCP `notifications/message` params). */
  onLog?: (message: ToolLogMessage) => void;
  /**
   * Asks the client's user for input (MCP `elicitation/create` params in, its result out); absent
   * when the client cannot be asked (it did not declare elicitation, or the transport has no way back).
   */
  elicit?: (request: Record<string, unknown>) => Promise<Record<string, unknown>>;
}

export interface ToolLogMessage {
  level: string;
  logger?: string;
  data: unknown;
}

export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}
