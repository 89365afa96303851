import type { OtlpProtocol } from '../../domain/proxy/proxy-config';
import { collectorGuard, type OtlpExporter } from './collector-guard';
import type { OtlpSignal } from './otel-environment';
import { DEFAULT_EXPORT_TIMEOUT_MS } from './telemetry-settings';

export interface OtlpTarget {
  endpoint: string;
  protocol?: OtlpProtocol;
  timeoutMs?: number;
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
  const timeoutMillis = target.timeoutMs ?? DEFAULT_EXPORT_TIMEOUT_MS;
  const options = { url: target.endpoint, timeoutMillis };
  const grpc = target.protocol === 'grpc';
  const exporter =
    signal === 'traces'
      ? grpc
        ? new (traceGrpc().OTLPTraceExporter)(options)
        : new (traceProto().OTLPTraceExporter)(options)
      : grpc
        ? new (metricGrpc().OTLPMetricExporter)(options)
        : new (metricProto().OTLPMetricExporter)(options);
  const guard = collectorGuard(target.endpoint, Math.min(PROBE_MS, timeoutMillis), warn);
  return guard.wrap(exporter as unknown as E, signal === 'traces' ? 'spans' : 'metrics');
}

const traceProto = () =>
  require('@opentelemetry/exporter-trace-otlp-proto') as typeof import('@opentelemetry/exporter-trace-otlp-proto');
const traceGrpc = () =>
  require('@opentelemetry/exporter-trace-otlp-grpc') as typeof import('@opentelemetry/exporter-trace-otlp-grpc');
const metricProto = () =>
  require('@opentelemetry/exporter-metrics-otlp-proto') as typeof import('@opentelemetry/exporter-metrics-otlp-proto');
const metricGrpc = () =>
  require('@opentelemetry/exporter-metrics-otlp-grpc') as typeof import('@opentelemetry/exporter-metrics-otlp-grpc');
