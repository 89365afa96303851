import type {
  MetricsExporterName,
  OtlpProtocol,
  ProxyTelemetryConfig,
  TelemetryExporterName,
  TraceSamplerName,
} from '../proxy/proxy-config';

/** Where metrics go: OTLP only; `none` (the default) loads no metrics code at all. */
export interface MetricsSettings {
  exporter: MetricsExporterName;
  /** The full metrics URL (http/protobuf: `…/v1/metrics`; grpc: `http://host:port`). */
  endpoint?: string;
  protocol?: OtlpProtocol;
  timeoutMs?: number;
  /** How often a long process exports (OTEL_METRIC_EXPORT_INTERVAL); every process exports at exit. */
  intervalMs?: number;
}

/** Where spans go. `none` (the default) loads no tracing code at all. */
export interface TelemetrySettings {
  exporter: TelemetryExporterName;
  /** The full traces URL for `otlp` (http/protobuf: `…/v1/traces`; grpc: `http://host:port`). */
  endpoint?: string;
  protocol?: OtlpProtocol;
  /** One export's bound, connection included; also what the exit waits for at most. */
  timeoutMs?: number;
  /** JSON Lines file for `file`. */
  file?: string;
  serviceName?: string;
  /** OTEL_RESOURCE_ATTRIBUTES, service.name excepted (serviceName carries it). */
  resource?: Record<string, string>;
  sampler?: { name: TraceSamplerName; ratio?: number };
  metrics?: MetricsSettings;
}

/**
 * Switches tracing on for this process and flushes it. `start` is called once, before the
 * first span (by `run` from its flags, by `mcp-serve` from the step's proxy config); later
 * calls are ignored. `shutdown` exports every span still buffered and is bounded in time,
 * so a process that is told to stop still reports its last tool calls.
 */
export interface TelemetryControl {
  start(settings: TelemetrySettings): Promise<void>;
  /** `mcp-serve`: starts from the step's `telemetry` block, or from the `OTEL_*` variables without one. */
  startForProxy(config: ProxyTelemetryConfig | undefined): Promise<void>;
  /** The settings in force (`none` before `start`). */
  settings(): Readonly<TelemetrySettings>;
  /** The `telemetry` block of a step's proxy config: same exporter, parented under `traceparent`. */
  proxyTelemetry(traceparent?: string): ProxyTelemetryConfig;
  shutdown(): Promise<void>;
}

export const TELEMETRY_CONTROL = Symbol.for('awf.TelemetryControl');
