import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

/** ExportResultCode.SUCCESS / FAILED of @opentelemetry/core, without loading it for two numbers. */
const SUCCESS = 0;
const FAILED = 1;
const STATUS = ['unset', 'ok', 'error'] as const;

/**
 * The `file` and `console` exporters: each finished span as one JSON line (docs/observability.md),
 * to a file or to stderr (the SDK's own console exporter writes to stdout, which belongs to the
 * protocol or the run). Spans reach it through the SDK's SimpleSpanProcessor as they end, and each
 * export is one write of whole lines on an O_APPEND descriptor: `run` and its `mcp-serve`
 * children share one file without interleaving, and a span that ended is on disk even if the
 * process exits right after.
 */
export class JsonLinesSpanExporter implements SpanExporter {
  private stopped = false;
  private readonly fd: number;

  constructor(
    target: { file: string } | 'stderr',
    private readonly mask: (text: string) => string,
  ) {
    if (target === 'stderr') {
      this.fd = 2;
    } else {
      mkdirSync(dirname(target.file), { recursive: true });
      this.fd = openSync(target.file, 'a', 0o600);
    }
  }

  export(spans: ReadableSpan[], done: (result: { code: number; error?: Error }) => void): void {
    if (this.stopped) return done({ code: FAILED, error: new Error('exporter is shut down') });
    try {
      writeSync(this.fd, this.mask(spans.map((s) => `${JSON.stringify(spanLine(s))}\n`).join('')));
      done({ code: SUCCESS });
    } catch (err) {
      done({ code: FAILED, error: err as Error });
    }
  }

  async shutdown(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.fd !== 2) closeSync(this.fd);
  }

  async forceFlush(): Promise<void> {}
}

/** The one layout of a span line: same keys, same order, for every span the provider ends. */
function spanLine(span: ReadableSpan): Record<string, unknown> {
  const { traceId, spanId } = span.spanContext();
  const parent = span.parentSpanContext?.spanId;
  const message = span.status.message;
  return {
    name: span.name,
    trace_id: traceId,
    span_id: spanId,
    ...(parent ? { parent_span_id: parent } : {}),
    service: span.resource.attributes['service.name'],
    start: new Date(hrMillis(span.startTime)).toISOString(),
    duration_ms: Math.round(hrMillis(span.duration) * 1000) / 1000,
    status: STATUS[span.status.code] ?? 'unset',
    ...(message ? { status_message: message } : {}),
    attributes: { ...span.attributes },
    ...(span.events.length
      ? {
          events: span.events.map((e) => ({
            name: e.name,
            time: new Date(hrMillis(e.time)).toISOString(),
            ...(e.attributes ? { attributes: { ...e.attributes } } : {}),
          })),
        }
      : {}),
  };
}

function hrMillis([seconds, nanos]: [number, number]): number {
  return seconds * 1e3 + nanos / 1e6;
}
