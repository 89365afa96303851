import type { ProxyTelemetryConfig, TelemetryExporterName } from '../proxy/proxy-config';

/** Where spans go. `none` (the default) loads no tracing code at all. */
export interface TelemetrySettings {
  exporter: TelemetryExporterName;
  /** OTLP/HTTP base URL (`/v1/traces` is appended) for `otlp`. */
  endpoint?: string;
  /** JSON Lines file for `file`. */
  file?: string;
  serviceName?: string;
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
