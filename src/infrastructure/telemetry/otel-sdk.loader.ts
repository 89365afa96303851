import type * as OtelApi from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { Sampler, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { TelemetrySettings } from '../../domain/ports/telemetry-control.port';
import type { Tracer } from '../../domain/ports/tracer.port';
import { AWF_VERSION } from '../../version';
import { JsonLinesSpanExporter } from './jsonl-span.exporter';
import { OtelTracer } from './otel.tracer';
import { otlpExporter, otlpTarget } from './otlp-exporters';

export interface LoadedTracing {
  /** What awf's own spans go through. */
  tracer: Tracer;
  /** Exports what is buffered, then stops the provider. */
  shutdown(): Promise<void>;
}

type Warn = (fields: object, message: string) => void;

/**
 * The one place that loads OpenTelemetry's trace SDK, with `require` at call time: a process
 * with tracing off never reads these modules (a test checks `require.cache`). OTLP goes
 * through a batch processor; file and console write each span's line as it ends (the SDK's
 * SimpleSpanProcessor), so a span that ended is never lost to an exit.
 */
export function loadTracing(settings: TelemetrySettings, mask: (text: string) => string, warn: Warn): LoadedTracing {
  const api = require('@opentelemetry/api') as typeof OtelApi;
  const { NodeTracerProvider } =
    require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { SimpleSpanProcessor } =
    require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const lines =
    settings.exporter === 'otlp'
      ? undefined
      : new JsonLinesSpanExporter(
          settings.exporter === 'file' ? { file: settings.file ?? 'awf-traces.jsonl' } : 'stderr',
          mask,
        );
  const sampler = settings.sampler ? samplerOf(settings.sampler) : undefined;
  const provider = new NodeTracerProvider({
    resource: resourceOf(settings),
    ...(sampler ? { sampler } : {}),
    spanProcessors: [lines ? new SimpleSpanProcessor(lines) : otlpProcessor(settings, warn)],
  });
  // Global registration lets extension modules that trace with @opentelemetry/api (or
  // nestjs-otel's @Span) export through the same provider.
  provider.register();
  const tracer = new OtelTracer(api, provider.getTracer('awf', AWF_VERSION), mask);
  return { tracer, shutdown: () => provider.shutdown() };
}

/** The process's resource: OTEL_RESOURCE_ATTRIBUTES, then awf's own keys, which win. */
export function resourceOf(settings: TelemetrySettings): Resource {
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  return resourceFromAttributes({
    ...settings.resource,
    'service.name': settings.serviceName ?? 'awf',
    'service.version': AWF_VERSION,
    'process.pid': process.pid,
  });
}

function otlpProcessor(settings: TelemetrySettings, warn: Warn): SpanProcessor {
  const { BatchSpanProcessor } =
    require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const exporter = otlpExporter<SpanExporter>('traces', otlpTarget('traces', settings), warn);
  return new BatchSpanProcessor(exporter, { exportTimeoutMillis: settings.timeoutMs });
}

/** OTEL_TRACES_SAMPLER as the SDK's own samplers. */
function samplerOf({ name, ratio = 1 }: NonNullable<TelemetrySettings['sampler']>): Sampler {
  const sdk = require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const root = name.endsWith('always_on')
    ? new sdk.AlwaysOnSampler()
    : name.endsWith('always_off')
      ? new sdk.AlwaysOffSampler()
      : new sdk.TraceIdRatioBasedSampler(ratio);
  return name.startsWith('parentbased_') ? new sdk.ParentBasedSampler({ root }) : root;
}
