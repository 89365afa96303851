/* eslint-disable @typescript-eslint/no-require-imports */
import type * as OtelApi from '@opentelemetry/api';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { TelemetrySettings } from '../../domain/ports/telemetry-control.port';
import { AWF_VERSION } from '../../version';
import { tracesUrl } from './telemetry-settings';

export interface LoadedTracing {
  api: typeof OtelApi;
  tracer: OtelApi.Tracer;
  /** Exports what is buffered, then stops the provider. */
  shutdown(): Promise<void>;
}

/** Requests to a collector that does not answer give up before the parent's 5 s kill. */
const EXPORT_TIMEOUT_MS = 3000;

/**
 * The one place that loads OpenTelemetry's SDK, with `require` at call time: a process with
 * tracing off never reads these modules (a test checks `require.cache`). OTLP goes through
 * a batch processor; file and console hand each span to a line buffer as it ends, written
 * within 20 ms and on shutdown or exit, so only a SIGKILL can lose the last few.
 */
export function loadTracing(settings: TelemetrySettings, mask: (text: string) => string): LoadedTracing {
  const api = require('@opentelemetry/api') as typeof OtelApi;
  const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName ?? 'awf', 'service.version': AWF_VERSION, 'process.pid': process.pid }),
    spanProcessors: [spanProcessor(settings, mask)],
  });
  // Global registration lets extension modules that trace with @opentelemetry/api (or
  // nestjs-otel's @Span) export through the same provider.
  provider.register();
  return { api, tracer: provider.getTracer('awf', AWF_VERSION), shutdown: () => provider.shutdown() };
}

function spanProcessor(settings: TelemetrySettings, mask: (text: string) => string): SpanProcessor {
  if (settings.exporter === 'otlp') {
    const { BatchSpanProcessor } = require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
    const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-proto') as typeof import('@opentelemetry/exporter-trace-otlp-proto');
    // Without an explicit URL the exporter reads OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT itself;
    // OTEL_EXPORTER_OTLP_HEADERS is always read from the environment, never from a file.
    const exporter = new OTLPTraceExporter({ ...(settings.endpoint ? { url: tracesUrl(settings.endpoint) } : {}), timeoutMillis: EXPORT_TIMEOUT_MS });
    return new BatchSpanProcessor(exporter, { exportTimeoutMillis: EXPORT_TIMEOUT_MS });
  }
  const { JsonLinesSpanExporter, JsonLinesSpanProcessor } = require('./jsonl-span.exporter') as typeof import('./jsonl-span.exporter');
  const target = settings.exporter === 'file' ? { file: settings.file ?? 'awf-traces.jsonl' } : 'stderr';
  return new JsonLinesSpanProcessor(new JsonLinesSpanExporter(target, mask));
}
