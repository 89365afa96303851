import { type OtlpProtocol, TRACE_SAMPLERS, type TraceSamplerName } from '../../domain/proxy/proxy-config';

export type OtlpSignal = 'traces' | 'metrics';

export const PROTOCOLS: readonly OtlpProtocol[] = ['http/protobuf', 'grpc'];
export const SAMPLERS: readonly TraceSamplerName[] = TRACE_SAMPLERS;

/** What the OTel SDK environment says about one signal, before flags and .awf/config.yaml. */
export interface SignalEnvironment {
  exporter?: string;
  /** A full URL when it came from the signal's own variable, a base URL otherwise. */
  endpoint?: { value: string; full: boolean; from: string };
  protocol?: { value: string; from: string };
  timeoutMs?: { value: string; from: string };
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * One signal's OTEL_EXPORTER_OTLP_* variables as the OTel spec reads them: the signal's own
 * variable (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) first, then the shared one. Empty values
 * count as unset, as the spec says.
 */
export function signalEnvironment(env: Env, signal: OtlpSignal): SignalEnvironment {
  const upper = signal.toUpperCase();
  const pick = (key: string): { value: string; from: string } | undefined => {
    for (const name of [`OTEL_EXPORTER_OTLP_${upper}_${key}`, `OTEL_EXPORTER_OTLP_${key}`]) {
      const value = env[name]?.trim();
      if (value) return { value, from: name };
    }
    return undefined;
  };
  const endpoint = pick('ENDPOINT');
  return {
    exporter: env[`OTEL_${upper}_EXPORTER`]?.trim() || undefined,
    ...(endpoint ? { endpoint: { ...endpoint, full: endpoint.from.includes(`_${upper}_`) } } : {}),
    ...(pick('PROTOCOL') ? { protocol: pick('PROTOCOL') } : {}),
    ...(pick('TIMEOUT') ? { timeoutMs: pick('TIMEOUT') } : {}),
  };
}

/** OTEL_SDK_DISABLED: only the literal `true` (any case) disables, per the spec. */
export function sdkDisabled(env: Env): boolean {
  return env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true';
}

/**
 * OTEL_RESOURCE_ATTRIBUTES: `key=value` pairs separated by commas, values percent-encoded.
 * A malformed pair is an error, never silently dropped.
 */
export function resourceAttributes(raw: string | undefined): Record<string, string> | { error: string } {
  const out: Record<string, string> = {};
  for (const pair of (raw ?? '').split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    const key = pair.slice(0, at).trim();
    if (at < 1 || key === '') return { error: `"${pair.trim()}" is not key=value` };
    try {
      out[key] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      return { error: `the value of ${key} is not valid percent-encoding` };
    }
  }
  return out;
}

/**
 * OTEL_EXPORTER_OTLP_[SIGNAL_]HEADERS as the exporters send them (same `key=value` format as the
 * resource attributes; the signal's own variable wins). Malformed values send no headers: the
 * exporter itself reports them.
 */
export function otlpHeaders(env: Env, signal: OtlpSignal): Record<string, string> {
  const raw = env[`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_HEADERS`] ?? env.OTEL_EXPORTER_OTLP_HEADERS;
  const parsed = resourceAttributes(raw);
  return 'error' in parsed && typeof parsed.error === 'string' ? {} : (parsed as Record<string, string>);
}

/**
 * The URL an exporter sends one signal to. http/protobuf: a base URL gets `/v1/<signal>`
 * (a signal's own variable is used as it is); grpc: `host:port` or a URL, path dropped, as
 * AWF's Go exporter takes it. Undefined when the value is not an endpoint.
 */
export function signalUrl(
  value: string,
  protocol: OtlpProtocol,
  signal: OtlpSignal,
  full: boolean,
): string | undefined {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : protocol === 'grpc' ? `http://${value}` : '';
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (protocol === 'grpc') return `${url.protocol}//${url.host}`;
  if (full || new RegExp(`/v1/${signal}/?$`).test(url.pathname)) return value;
  return `${value.replace(/\/+$/, '')}/v1/${signal}`;
}

/** The spec's defaults when otlp is on and no endpoint is given anywhere. */
export function defaultUrl(protocol: OtlpProtocol, signal: OtlpSignal): string {
  return protocol === 'grpc' ? 'http://localhost:4317' : `http://localhost:4318/v1/${signal}`;
}
