import type { StartSpanOptions, TraceSpan, Tracer } from '../../domain/ports/tracer.port';

const NOOP_SPAN: TraceSpan = Object.freeze({
  traceparent: undefined,
  setAttributes: () => undefined,
  fail: () => undefined,
  end: () => undefined,
});

/** Tracing off: one shared frozen span, no allocation, no OpenTelemetry code loaded. */
export const NOOP_TRACER: Tracer = Object.freeze({
  enabled: false,
  startSpan: (_name: string, _options?: StartSpanOptions): TraceSpan => NOOP_SPAN,
});
