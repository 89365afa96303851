import type { OtlpProtocol } from '../../domain/proxy/proxy-config';
import { collectorGuard, type OtlpExporter } from './collector-guard';
import type { OtlpSignal } from './otel-environment';
import { DEFAULT_EXPORT_TIMEOUT_MS } from './telemetry-settings';

export interface OtlpTarget {
  endpoint: string;
  protocol?: OtlpProtocol;
  timeoutMs?: number;
}

/** The OTel spec's default endpoints, when no variable, flag or config names one. */
const DEFAULT_ENDPOINTS = {
  grpc: { traces: 'http://localhost:4317', metrics: 'http://localhost:4317' },
  'http/protobuf': { traces: 'http://localhost:4318/v1/traces', metrics: 'http://localhost:4318/v1/metrics' },
};

/** Where one signal goes: its settings, with the default endpoint of its protocol. */
export function otlpTarget(signal: OtlpSignal, settings: Partial<OtlpTarget>): OtlpTarget {
  const { endpoint, protocol, timeoutMs } = settings;
  return { endpoint: endpoint ?? DEFAULT_ENDPOINTS[protocol ?? 'http/protobuf'][signal], protocol, timeoutMs };
}

/** A probe of a collector never waits longer than this (or the export timeout, if shorter). */
const PROBE_MS = 500;

type Warn = (fields: object, message: string) => void;

/**
 * The official OTLP exporter of one signal for one protocol, required only here and only when
 * used, behind the collector's guard (collector-guard.ts). The exporters read the headers
 * (OTEL_EXPORTER_OTLP_[SIGNAL_]HEADERS) from the environment themselves: they are never
 * written to a file. Everything else comes resolved in `target`.
 */
export function otlpExporter<E extends OtlpExporter<never>>(signal: OtlpSignal, target: OtlpTarget, warn: Warn): E {
  return guardOf(signal, target, warn).wrap(exporterOf(signal, target), signal === 'traces' ? 'spans' : 'metrics');
}

/**
 * Whether the collector of `target` answers (the guard's probe, once per collector and process).
 * Asked before an SDK is loaded: a process whose collector is down or mute loads nothing for it
 * and holds no exit for it; the guard has said once where telemetry is not sent.
 */
export function collectorAnswers(signal: OtlpSignal, target: OtlpTarget, warn: Warn): Promise<boolean> {
  return guardOf(signal, target, warn).admit();
}

const timeoutOf = (target: OtlpTarget): number => target.timeoutMs ?? DEFAULT_EXPORT_TIMEOUT_MS;

function guardOf(signal: OtlpSignal, target: OtlpTarget, warn: Warn) {
  const probeTarget = { url: target.endpoint, protocol: target.protocol, signal };
  return collectorGuard(probeTarget, Math.min(PROBE_MS, timeoutOf(target)), warn);
}

function exporterOf<E>(signal: OtlpSignal, target: OtlpTarget): E {
  const options = { url: target.endpoint, timeoutMillis: timeoutOf(target) };
  const grpc = target.protocol === 'grpc';
  const exporter =
    signal === 'traces'
      ? grpc
        ? new (traceGrpc().OTLPTraceExporter)(options)
        : new (traceProto().OTLPTraceExporter)(options)
      : grpc
        ? new (metricGrpc().OTLPMetricExporter)(options)
        : new (metricProto().OTLPMetricExporter)(options);
  return exporter as unknown as E;
}

const traceProto = () =>
  require('@opentelemetry/exporter-trace-otlp-proto') as typeof import('@opentelemetry/exporter-trace-otlp-proto');
const traceGrpc = () =>
  require('@opentelemetry/exporter-trace-otlp-grpc') as typeof import('@opentelemetry/exporter-trace-otlp-grpc');
const metricProto = () =>
  require('@opentelemetry/exporter-metrics-otlp-proto') as typeof import('@opentelemetry/exporter-metrics-otlp-proto');
const metricGrpc = () =>
  require('@opentelemetry/exporter-metrics-otlp-grpc') as typeof import('@opentelemetry/exporter-metrics-otlp-grpc');
