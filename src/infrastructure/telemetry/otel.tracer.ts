import type * as OtelApi from '@opentelemetry/api';
import type { SpanAttributes, StartSpanOptions, TraceSpan, Tracer } from '../../domain/ports/tracer.port';
import { maskAttributes } from './masked-attributes';
import { formatTraceparent, parseTraceparent } from '../../domain/model/traceparent';

/** The Tracer port over an OpenTelemetry tracer. Built only once the SDK is loaded. */
export class OtelTracer implements Tracer {
  readonly enabled = true;

  constructor(
    private readonly api: typeof OtelApi,
    private readonly tracer: OtelApi.Tracer,
    private readonly mask: (text: string) => string,
  ) {}

  startSpan(name: string, options: StartSpanOptions = {}): TraceSpan {
    const span = this.tracer.startSpan(
      name,
      { attributes: maskAttributes(options.attributes, this.mask) },
      this.parentContext(options.parent),
    );
    return new OtelSpan(span, this.api, this.mask);
  }

  private parentContext(parent: StartSpanOptions['parent']): OtelApi.Context {
    const { context, trace, ROOT_CONTEXT } = this.api;
    if (parent instanceof OtelSpan) return trace.setSpan(ROOT_CONTEXT, parent.span);
    const remote = typeof parent === 'string' ? parseTraceparent(parent) : undefined;
    if (remote) return trace.setSpanContext(ROOT_CONTEXT, { ...remote, isRemote: true });
    return context.active();
  }
}

class OtelSpan implements TraceSpan {
  private ended = false;

  constructor(
    readonly span: OtelApi.Span,
    private readonly api: typeof OtelApi,
    private readonly mask: (text: string) => string,
  ) {}

  get traceparent(): string {
    const { traceId, spanId, traceFlags } = this.span.spanContext();
    return formatTraceparent(traceId, spanId, traceFlags);
  }

  setAttributes(attributes: SpanAttributes): void {
    if (!this.ended) this.span.setAttributes(maskAttributes(attributes, this.mask));
  }

  /** `at` is a `performance.now()`, which OpenTelemetry takes as such (below half the time origin). */
  fail(message: string, at?: number): void {
    if (this.ended) return;
    const masked = this.mask(message);
    this.span.setStatus({ code: this.api.SpanStatusCode.ERROR, message: masked });
    this.span.addEvent('exception', { 'exception.message': masked }, at);
  }

  end(at?: number): void {
    if (this.ended) return;
    this.ended = true;
    this.span.end(at);
  }
}
