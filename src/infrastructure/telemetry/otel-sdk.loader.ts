import type * as OtelApi from '@opentelemetry/api';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { TelemetrySettings } from '../../domain/ports/telemetry-control.port';
import type { Tracer } from '../../domain/ports/tracer.port';
import { AWF_VERSION } from '../../version';
import { JsonLinesSpanExporter, JsonLinesSpanProcessor } from './jsonl-span.exporter';
import { JsonLinesTracer } from './jsonl.tracer';
import { OtelTracer } from './otel.tracer';
import { tracesUrl } from './telemetry-settings';

export interface LoadedTracing {
  /** What awf's own spans go through. */
  tracer: Tracer;
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
 * With file and console, awf's own spans skip the SDK's span objects (ADR 099) and share the
 * exporter with the registered provider, which extensions' spans still go through.
 */
export function loadTracing(settings: TelemetrySettings, mask: (text: string) => string): LoadedTracing {
  const api = require('@opentelemetry/api') as typeof OtelApi;
  const { NodeTracerProvider } =
    require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const serviceName = settings.serviceName ?? 'awf';
  const lines =
    settings.exporter === 'otlp'
      ? undefined
      : new JsonLinesSpanExporter(
          settings.exporter === 'file' ? { file: settings.file ?? 'awf-traces.jsonl' } : 'stderr',
          mask,
        );
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      'service.name': serviceName,
      'service.version': AWF_VERSION,
      'process.pid': process.pid,
    }),
    spanProcessors: [lines ? new JsonLinesSpanProcessor(lines) : otlpProcessor(settings)],
  });
  // Global registration lets extension modules that trace with @opentelemetry/api (or
  // nestjs-otel's @Span) export through the same provider.
  provider.register();
  const tracer = lines
    ? new JsonLinesTracer((record) => lines.defer(record), mask, serviceName)
    : new OtelTracer(api, provider.getTracer('awf', AWF_VERSION), mask);
  return { tracer, shutdown: () => provider.shutdown() };
}

function otlpProcessor(settings: TelemetrySettings): SpanProcessor {
  const { BatchSpanProcessor } =
    require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-proto') as typeof import('@opentelemetry/exporter-trace-otlp-proto');
  // Without an explicit URL the exporter reads OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT itself;
  // OTEL_EXPORTER_OTLP_HEADERS is always read from the environment, never from a file.
  const exporter = new OTLPTraceExporter({
    ...(settings.endpoint ? { url: tracesUrl(settings.endpoint) } : {}),
    timeoutMillis: EXPORT_TIMEOUT_MS,
  });
  return new BatchSpanProcessor(exporter, { exportTimeoutMillis: EXPORT_TIMEOUT_MS });
}
