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

export function toSpanRecord(span: ReadableSpan): SpanRecord {
  const context = span.spanContext();
  const record: SpanRecord = {
    name: span.name,
    trace_id: context.traceId,
    span_id: context.spanId,
    ...(span.parentSpanContext ? { parent_span_id: span.parentSpanContext.spanId } : {}),
    service: span.resource.attributes['service.name'] as string | undefined,
    start: new Date(hrMillis(span.startTime)).toISOString(),
    duration_ms: Math.round(hrMillis(span.duration) * 1000) / 1000,
    status: STATUS[span.status.code] ?? 'unset',
    ...(span.status.message ? { status_message: span.status.message } : {}),
    attributes: { ...span.attributes },
  };
  if (span.events.length) {
    record.events = span.events.map((e) => ({ name: e.name, time: new Date(hrMillis(e.time)).toISOString(), ...(e.attributes ? { attributes: { ...e.attributes } } : {}) }));
  }
  return record;
}

function hrMillis([seconds, nanos]: [number, number]): number {
  return seconds * 1e3 + nanos / 1e6;
}
