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
export type MetricsExporterName = 'none' | 'otlp';
/** OTLP's transports as OTEL_EXPORTER_OTLP_PROTOCOL names them (http/json is not offered). */
export type OtlpProtocol = 'http/protobuf' | 'grpc';
/** OTEL_TRACES_SAMPLER's names, the spec's built-in samplers. */
export const TRACE_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type TraceSamplerName = (typeof TRACE_SAMPLERS)[number];

/** Metrics over OTLP: where and how, as resolved by `awf run` (endpoint is the full URL). */
export interface ProxyMetricsConfig {
  exporter: MetricsExporterName;
  endpoint?: string;
  protocol?: OtlpProtocol;
  timeout_ms?: number;
  interval_ms?: number;
}

/**
 * The run's telemetry settings, resolved once by `awf run` (flags, .awf/config.yaml, OTEL_*),
 * so the step's `mcp-serve` exports the same way whatever its agent passes on of the
 * environment. `endpoint` is the full traces URL. Headers are never written here (tokens).
 */
export interface ProxyTelemetryConfig {
  exporter: TelemetryExporterName;
  traceparent?: string;
  endpoint?: string;
  protocol?: OtlpProtocol;
  timeout_ms?: number;
  file?: string;
  service_name?: string;
  resource?: Record<string, string>;
  sampler?: TraceSamplerName;
  sampler_ratio?: number;
  metrics?: ProxyMetricsConfig;
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
  /**
   * Where the upstream servers' tool pins are (`<data dir>/mcp-pins`, ADR 253), as the run's
   * `--storage` decides, whatever its agent passes on of the environment; absent: from the environment.
   */
  pins_dir?: string;
}
