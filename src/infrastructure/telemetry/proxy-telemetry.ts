import type { ProxyTelemetryConfig } from '../../domain/proxy/proxy-config';
import type { TelemetrySettings } from '../../domain/ports/telemetry-control.port';
import { DEFAULT_SERVICE_NAME, resolveTelemetrySettings } from './telemetry-settings';

// The step's proxy config's `telemetry` block and the settings it stands for: `awf run` writes
// what it resolved, so the step's `mcp-serve` exports exactly as the run does.

/** `mcp-serve`: the step's proxy config decides; without a telemetry block, the `OTEL_*` variables do. */
export function settingsFromProxyConfig(
  config: ProxyTelemetryConfig | undefined,
  env: NodeJS.ProcessEnv = process.env,
): TelemetrySettings {
  if (!config) return resolveTelemetrySettings({ env });
  const m = config.metrics;
  return {
    exporter: config.exporter,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    ...(config.protocol ? { protocol: config.protocol } : {}),
    ...(config.timeout_ms ? { timeoutMs: config.timeout_ms } : {}),
    ...(config.file ? { file: config.file } : {}),
    serviceName: config.service_name ?? env.OTEL_SERVICE_NAME ?? DEFAULT_SERVICE_NAME,
    ...(config.resource ? { resource: config.resource } : {}),
    ...(config.sampler ? { sampler: { name: config.sampler, ratio: config.sampler_ratio } } : {}),
    ...(m && m.exporter !== 'none'
      ? {
          metrics: {
            exporter: m.exporter,
            endpoint: m.endpoint,
            protocol: m.protocol,
            timeoutMs: m.timeout_ms,
            intervalMs: m.interval_ms,
          },
        }
      : {}),
  };
}

/** The inverse: the `telemetry` block `awf run` writes into a step's proxy config. */
export function proxyTelemetryOf(s: Readonly<TelemetrySettings>, traceparent?: string): ProxyTelemetryConfig {
  const m = s.metrics;
  return {
    exporter: s.exporter,
    ...(s.endpoint ? { endpoint: s.endpoint } : {}),
    ...(s.protocol ? { protocol: s.protocol } : {}),
    ...(s.timeoutMs ? { timeout_ms: s.timeoutMs } : {}),
    ...(s.file ? { file: s.file } : {}),
    ...(s.serviceName ? { service_name: s.serviceName } : {}),
    ...(s.resource ? { resource: { ...s.resource } } : {}),
    ...(s.sampler ? { sampler: s.sampler.name } : {}),
    ...(s.sampler?.ratio !== undefined ? { sampler_ratio: s.sampler.ratio } : {}),
    ...(m
      ? {
          metrics: {
            exporter: m.exporter,
            ...(m.endpoint ? { endpoint: m.endpoint } : {}),
            ...(m.protocol ? { protocol: m.protocol } : {}),
            ...(m.timeoutMs ? { timeout_ms: m.timeoutMs } : {}),
            ...(m.intervalMs ? { interval_ms: m.intervalMs } : {}),
          },
        }
      : {}),
    ...(traceparent ? { traceparent } : {}),
  };
}
