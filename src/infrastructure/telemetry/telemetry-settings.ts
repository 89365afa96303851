import { isAbsolute, resolve } from 'node:path';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { MetricsExporterName, TelemetryExporterName, TraceSamplerName } from '../../domain/proxy/proxy-config';
import type { MetricsSettings, TelemetrySettings } from '../../domain/ports/telemetry-control.port';
import {
  defaultUrl,
  type OtlpSignal,
  PROTOCOLS,
  resourceAttributes,
  SAMPLERS,
  sdkDisabled,
  signalEnvironment,
  signalUrl,
} from './otel-environment';

export const EXPORTERS: readonly TelemetryExporterName[] = ['none', 'otlp', 'console', 'file'];
const METRICS_EXPORTERS: readonly MetricsExporterName[] = ['none', 'otlp'];
export const DEFAULT_SERVICE_NAME = 'awf';
export const DEFAULT_TRACE_FILE = '.awf/traces.jsonl';
/** Shorter than the spec's 10 s: a CLI waits for its last export at exit (docs/observability.md). */
export const DEFAULT_EXPORT_TIMEOUT_MS = 1000;
const DEFAULT_METRIC_INTERVAL_MS = 60_000;
const PROJECT_KEYS = ['exporter', 'endpoint', 'protocol', 'service_name', 'file', 'timeout_ms', 'metrics'];

/** `--otel-*` flags of `run`; each wins over .awf/config.yaml and the variables. */
export interface TelemetryFlags {
  exporter?: string;
  endpoint?: string;
  serviceName?: string;
  file?: string;
  protocol?: string;
  metrics?: string;
}

export interface TelemetrySources {
  flags?: TelemetryFlags;
  env?: NodeJS.ProcessEnv;
  /** The `telemetry:` mapping of `.awf/config.yaml`. */
  project?: Record<string, unknown>;
  cwd?: string;
}

type Project = Partial<Record<'exporter' | 'endpoint' | 'protocol' | 'service_name' | 'file' | 'metrics', string>> & {
  timeout_ms?: number;
};

/**
 * Flags, then `.awf/config.yaml`, then the OTel SDK environment (OTEL_*), then the defaults:
 * as the OTel spec has it, what is configured explicitly wins over the environment. An
 * endpoint without an exporter means `otlp`, for traces and metrics. OTEL_SDK_DISABLED=true
 * turns both off unless a flag asks for them. The result is complete and absolute, so it can
 * be written as is into a step's proxy config for an `mcp-serve` in another directory.
 */
export function resolveTelemetrySettings(sources: TelemetrySources = {}): TelemetrySettings {
  const { flags = {}, env = process.env, cwd = process.cwd() } = sources;
  const project = checkProject(sources.project ?? {});
  const resource = resourceAttributes(env.OTEL_RESOURCE_ATTRIBUTES);
  if ('error' in resource) throw invalid(`OTEL_RESOURCE_ATTRIBUTES: ${resource.error}`);
  const { 'service.name': resourceService, ...attributes } = resource;
  const serviceName =
    flags.serviceName ??
    project.service_name ??
    env.OTEL_SERVICE_NAME?.trim() ??
    resourceService ??
    DEFAULT_SERVICE_NAME;
  const asked = flags.exporter ?? flags.endpoint ?? flags.metrics;
  if (sdkDisabled(env) && asked === undefined) return { exporter: 'none', serviceName };
  const resolveSignal = (signal: OtlpSignal, chosen: string | undefined, from: string) => {
    const fromEnv = signalEnvironment(env, signal);
    const base = flags.endpoint ?? project.endpoint;
    const name = chosen ?? fromEnv.exporter ?? ((base ?? fromEnv.endpoint) ? 'otlp' : 'none');
    const source = chosen !== undefined ? from : fromEnv.exporter ? `OTEL_${signal.toUpperCase()}_EXPORTER` : from;
    if (name.trim().toLowerCase() !== 'otlp') return { name, source };
    const protocol = oneOf(
      flags.protocol ?? project.protocol ?? fromEnv.protocol?.value ?? 'http/protobuf',
      PROTOCOLS,
      flags.protocol ? '--otel-protocol' : project.protocol ? 'telemetry.protocol' : (fromEnv.protocol?.from ?? ''),
      'an OTLP protocol awf exports with',
    );
    const given = base
      ? { value: base, full: false, from: flags.endpoint ? '--otel-endpoint' : 'telemetry.endpoint' }
      : fromEnv.endpoint;
    const endpoint = given ? signalUrl(given.value, protocol, signal, given.full) : defaultUrl(protocol, signal);
    if (!endpoint)
      throw invalid(
        `${given!.from} "${given!.value}" is not an http(s) URL`,
        protocol === 'grpc'
          ? 'Give host:port or a URL, e.g. 127.0.0.1:4317.'
          : 'Give the OTLP/HTTP base URL, e.g. http://127.0.0.1:4318.',
      );
    const timeout = project.timeout_ms ?? millis(fromEnv.timeoutMs) ?? DEFAULT_EXPORT_TIMEOUT_MS;
    return { name, source, endpoint, protocol, timeoutMs: timeout };
  };
  const traces = resolveSignal('traces', flags.exporter ?? project.exporter, flagOr(flags.exporter, 'exporter'));
  const exporter = oneOf(traces.name, EXPORTERS, traces.source, 'an exporter awf knows');
  const metricsSignal = resolveSignal('metrics', flags.metrics ?? project.metrics, flagOr(flags.metrics, 'metrics'));
  const metricsName = oneOf(
    metricsSignal.name,
    METRICS_EXPORTERS,
    metricsSignal.source,
    'a metrics exporter awf knows',
  );
  const file = flags.file ?? project.file ?? DEFAULT_TRACE_FILE;
  const sampler = samplerFrom(env);
  const metrics: MetricsSettings | undefined =
    metricsName === 'otlp'
      ? {
          exporter: 'otlp',
          endpoint: metricsSignal.endpoint,
          protocol: metricsSignal.protocol,
          timeoutMs: metricsSignal.timeoutMs,
          intervalMs: millis(named(env, 'OTEL_METRIC_EXPORT_INTERVAL')) ?? DEFAULT_METRIC_INTERVAL_MS,
        }
      : undefined;
  return {
    exporter,
    ...(exporter === 'otlp'
      ? { endpoint: traces.endpoint, protocol: traces.protocol, timeoutMs: traces.timeoutMs }
      : {}),
    ...(exporter === 'file' ? { file: isAbsolute(file) ? file : resolve(cwd, file) } : {}),
    serviceName,
    ...(Object.keys(attributes).length ? { resource: attributes } : {}),
    ...(sampler ? { sampler } : {}),
    ...(metrics ? { metrics } : {}),
  };
}

function samplerFrom(env: NodeJS.ProcessEnv): { name: TraceSamplerName; ratio?: number } | undefined {
  const raw = named(env, 'OTEL_TRACES_SAMPLER');
  if (!raw) return undefined;
  const name = oneOf(raw.value, SAMPLERS, raw.from, 'a sampler awf knows');
  if (!name.endsWith('traceidratio')) return { name };
  const arg = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  const ratio = arg ? Number(arg) : 1;
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1)
    throw invalid(`OTEL_TRACES_SAMPLER_ARG "${arg}" is not a ratio`, 'Give a number from 0 to 1, e.g. 0.25.');
  return { name, ratio };
}

function named(env: NodeJS.ProcessEnv, name: string): { value: string; from: string } | undefined {
  const value = env[name]?.trim();
  return value ? { value, from: name } : undefined;
}

function millis(raw: { value: string; from: string } | undefined): number | undefined {
  if (!raw) return undefined;
  const n = Number(raw.value);
  if (Number.isInteger(n) && n > 0) return n;
  throw invalid(`${raw.from} "${raw.value}" is not a number of milliseconds`, 'Give a positive integer, e.g. 1000.');
}

function flagOr(flag: string | undefined, key: string): string {
  return flag !== undefined ? (key === 'exporter' ? '--otel-exporter' : '--otel-metrics') : `telemetry.${key}`;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], from: string, what: string): T {
  const name = value.trim().toLowerCase();
  if ((allowed as readonly string[]).includes(name)) return name as T;
  throw invalid(`${from} "${value}" is not ${what}`, `Use one of: ${allowed.join(', ')}.`);
}

function checkProject(raw: Record<string, unknown>): Project {
  const unknown = Object.keys(raw).filter((k) => !PROJECT_KEYS.includes(k));
  if (unknown.length)
    throw invalid(
      `.awf/config.yaml telemetry has unknown key${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`,
      `Allowed: ${PROJECT_KEYS.join(', ')}.`,
    );
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'timeout_ms') {
      if (!Number.isInteger(value) || (value as number) < 1)
        throw invalid('.awf/config.yaml telemetry.timeout_ms must be a positive integer (milliseconds)');
    } else if (typeof value !== 'string' || value === '')
      throw invalid(`.awf/config.yaml telemetry.${key} must be a non-empty string`);
  }
  return raw as Project;
}

function invalid(message: string, hint = 'See docs/observability.md.'): AwfError {
  return new AwfError(ErrorCodes.CONFIG_INVALID, message, {}, hint);
}
