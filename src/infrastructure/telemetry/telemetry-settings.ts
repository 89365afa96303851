import { isAbsolute, resolve } from 'node:path';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { ProxyTelemetryConfig, TelemetryExporterName } from '../../domain/proxy/proxy-config';
import type { TelemetrySettings } from '../../domain/ports/telemetry-control.port';

export const EXPORTERS: readonly TelemetryExporterName[] = ['none', 'otlp', 'console', 'file'];
export const DEFAULT_SERVICE_NAME = 'awf';
export const DEFAULT_TRACE_FILE = '.awf/traces.jsonl';
const PROJECT_KEYS = ['exporter', 'endpoint', 'service_name', 'file'];

/** `--otel-*` flags of `run`; each wins over the variables and the project config. */
export interface TelemetryFlags {
  exporter?: string;
  endpoint?: string;
  serviceName?: string;
  file?: string;
}

export interface TelemetrySources {
  flags?: TelemetryFlags;
  env?: NodeJS.ProcessEnv;
  /** The `telemetry:` mapping of `.awf/config.yaml`. */
  project?: Record<string, unknown>;
  cwd?: string;
}

/**
 * Flags, then the standard `OTEL_*` variables, then `.awf/config.yaml`, then `none`. Giving
 * an endpoint without an exporter means `otlp`. The result is complete and absolute, so it
 * can be written as is into a step's proxy config for an `mcp-serve` in another directory.
 */
export function resolveTelemetrySettings(sources: TelemetrySources = {}): TelemetrySettings {
  const { flags = {}, env = process.env, cwd = process.cwd() } = sources;
  const project = checkProject(sources.project ?? {});
  const endpoint =
    flags.endpoint ?? env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT ?? project.endpoint;
  const exporter = exporterName(
    flags.exporter ??
      env.OTEL_TRACES_EXPORTER ??
      project.exporter ??
      ((flags.endpoint ?? project.endpoint) ? 'otlp' : 'none'),
    flags.exporter !== undefined
      ? '--otel-exporter'
      : env.OTEL_TRACES_EXPORTER !== undefined
        ? 'OTEL_TRACES_EXPORTER'
        : 'telemetry.exporter',
  );
  if (endpoint !== undefined && !/^https?:\/\/\S+$/.test(endpoint)) {
    throw invalid(
      `telemetry endpoint "${endpoint}" is not an http(s) URL`,
      'Give the OTLP/HTTP base URL, e.g. http://127.0.0.1:4318.',
    );
  }
  const file = flags.file ?? project.file ?? DEFAULT_TRACE_FILE;
  return {
    exporter,
    ...(endpoint ? { endpoint } : {}),
    ...(exporter === 'file' ? { file: isAbsolute(file) ? file : resolve(cwd, file) } : {}),
    serviceName: flags.serviceName ?? env.OTEL_SERVICE_NAME ?? project.service_name ?? DEFAULT_SERVICE_NAME,
  };
}

/** `mcp-serve`: the step's proxy config decides; without a telemetry block, the `OTEL_*` variables do. */
export function settingsFromProxyConfig(
  config: ProxyTelemetryConfig | undefined,
  env: NodeJS.ProcessEnv = process.env,
): TelemetrySettings {
  if (!config) return resolveTelemetrySettings({ env });
  return {
    exporter: config.exporter,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    ...(config.file ? { file: config.file } : {}),
    serviceName: config.service_name ?? env.OTEL_SERVICE_NAME ?? DEFAULT_SERVICE_NAME,
  };
}

/** The OTLP/HTTP traces URL for a base endpoint, as the OTel spec builds it from OTEL_EXPORTER_OTLP_ENDPOINT. */
export function tracesUrl(endpoint: string): string {
  return /\/v1\/traces\/?$/.test(endpoint) ? endpoint : `${endpoint.replace(/\/+$/, '')}/v1/traces`;
}

function exporterName(value: string, from: string): TelemetryExporterName {
  const name = value.trim().toLowerCase();
  if ((EXPORTERS as readonly string[]).includes(name)) return name as TelemetryExporterName;
  throw invalid(`${from} "${value}" is not an exporter awf knows`, `Use one of: ${EXPORTERS.join(', ')}.`);
}

function checkProject(
  raw: Record<string, unknown>,
): Partial<Record<'exporter' | 'endpoint' | 'service_name' | 'file', string>> {
  const unknown = Object.keys(raw).filter((k) => !PROJECT_KEYS.includes(k));
  if (unknown.length)
    throw invalid(
      `.awf/config.yaml telemetry has unknown key${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`,
      `Allowed: ${PROJECT_KEYS.join(', ')}.`,
    );
  for (const [key, value] of Object.entries(raw)) {
    if (typeof value !== 'string' || value === '')
      throw invalid(`.awf/config.yaml telemetry.${key} must be a non-empty string`);
  }
  return raw as Record<string, string>;
}

function invalid(message: string, hint = 'See docs/observability.md.'): AwfError {
  return new AwfError(ErrorCodes.CONFIG_INVALID, message, {}, hint);
}
