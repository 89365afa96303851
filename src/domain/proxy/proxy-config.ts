import type { PolicyLayer } from '../policy/policy.model';
import type { UpstreamServerSpec } from './upstream-server';

/**
 * The step's proxy config: written by `awf run` for one agent step, read by `awf mcp-serve`.
 * Plain data, JSON on disk, never holding secret values.
 */
export interface PluginToolSpec {
  plugin: string;
  expose: string[];
}

export type TelemetryExporterName = 'none' | 'otlp' | 'console' | 'file';

export interface ProxyTelemetryConfig {
  exporter: TelemetryExporterName;
  traceparent?: string;
  endpoint?: string;
  file?: string;
  service_name?: string;
}

/** Caps and timeouts. Every field has a default in {@link DEFAULT_LIMITS}. */
export interface ProxyLimits {
  read_max_bytes: number;
  read_default_lines: number;
  line_max_chars: number;
  write_max_bytes: number;
  bash_default_timeout_ms: number;
  bash_max_timeout_ms: number;
  bash_output_max_chars: number;
  glob_max_results: number;
  grep_max_results: number;
  env_passthrough: string[];
  /** Every Bash call under bubblewrap: the root writable, the system read-only, no home, no network. */
  bash_sandbox: boolean;
  /** With `bash_sandbox`: the command may use the network. */
  bash_sandbox_network: boolean;
}

export const DEFAULT_LIMITS: Readonly<ProxyLimits> = Object.freeze({
  read_max_bytes: 5 * 1024 * 1024,
  read_default_lines: 2000,
  line_max_chars: 2000,
  write_max_bytes: 5 * 1024 * 1024,
  bash_default_timeout_ms: 120_000,
  bash_max_timeout_ms: 600_000,
  bash_output_max_chars: 30_000,
  glob_max_results: 1000,
  grep_max_results: 1000,
  env_passthrough: [],
  bash_sandbox: false,
  bash_sandbox_network: false,
});

export const PROXY_CONFIG_VERSION = 1;

export interface ProxyConfig {
  version: number;
  intercept_builtins: boolean;
  plugin_tools: PluginToolSpec[];
  /** Other MCP servers to serve the tools of; `${VAR}`s unexpanded (mcp-serve expands them). */
  upstreams?: UpstreamServerSpec[];
  /** Absolute sandbox root; defaults to the working directory of `mcp-serve`. */
  root_dir?: string;
  /**
   * Absolute project dir of the run (where `.awf/config.yaml` and `.awf/plugins` are): its
   * extensions and plugins are loaded whatever the cwd of the agent that starts `mcp-serve`.
   */
  project_dir?: string;
  workflow?: string;
  step?: string;
  run_id?: string;
  /** `mcp-serve` exits when this process is gone, so an agent crash never leaves it behind. */
  owner_pid?: number;
  /** Audit JSONL of the step: one line per tool call. */
  events_path?: string;
  telemetry?: ProxyTelemetryConfig;
  limits?: Partial<ProxyLimits>;
  /** The step's effective tool policy: defaults first, then the step's own (docs/policy.md). */
  policy?: { layers: PolicyLayer[] };
  /** Unix socket (0600, in the step's private dir) where the owning `awf run` answers approvals. */
  approval_socket?: string;
}
