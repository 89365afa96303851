import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** A finished span as one JSON object: what the `file` and `console` exporters write, one per line. */
export interface SpanRecord {
  name: string;
  trace_id: string;
  span_id: string;
  parent_span_id?: string;
  service?: string;
  start: string;
  duration_ms: number;
  status: 'unset' | 'ok' | 'error';
  status_message?: string;
  attributes: Record<string, unknown>;
  events?: Array<{ name: string; time: string; attributes?: Record<string, unknown> }>;
}

const STATUS = ['unset', 'ok', 'error'] as const;

/** What a span line is made of, before it is laid out. */
export interface SpanFields {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  service?: string;
  start: string;
  durationMs: number;
  status: SpanRecord['status'];
  statusMessage?: string;
  attributes: Record<string, unknown>;
  events: NonNullable<SpanRecord['events']>;
}

/** The one layout of a span line, for awf's own spans and the SDK's alike: same keys, same order. */
export function spanRecord(f: SpanFields): SpanRecord {
  return {
    name: f.name,
    trace_id: f.traceId,
    span_id: f.spanId,
    ...(f.parentSpanId ? { parent_span_id: f.parentSpanId } : {}),
    service: f.service,
    start: f.start,
    duration_ms: Math.round(f.durationMs * 1000) / 1000,
    status: f.status,
    ...(f.statusMessage ? { status_message: f.statusMessage } : {}),
    attributes: f.attributes,
    ...(f.events.length ? { events: f.events } : {}),
  };
}

export function toSpanRecord(span: ReadableSpan): SpanRecord {
  const context = span.spanContext();
  return spanRecord({
    name: span.name,
    traceId: context.traceId,
    spanId: context.spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    service: span.resource.attributes['service.name'] as string | undefined,
    start: new Date(hrMillis(span.startTime)).toISOString(),
    durationMs: hrMillis(span.duration),
    status: STATUS[span.status.code] ?? 'unset',
    statusMessage: span.status.message,
    attributes: { ...span.attributes },
    events: span.events.map((e) => ({
      name: e.name,
      time: new Date(hrMillis(e.time)).toISOString(),
      ...(e.attributes ? { attributes: { ...e.attributes } } : {}),
    })),
  });
}

function hrMillis([seconds, nanos]: [number, number]): number {
  return seconds * 1e3 + nanos / 1e6;
}
