/** Span attribute values: what every OTLP backend can index. */
export type SpanAttributes = Record<string, string | number | boolean>;

/** One open span. Ends once; calls after `end()` are ignored. */
export interface TraceSpan {
  /**
   * W3C `traceparent` of this span, to hand to a child process (a step's `mcp-serve`) so
   * its spans join this trace. Undefined when tracing is off.
   */
  readonly traceparent: string | undefined;
  setAttributes(attributes: SpanAttributes): void;
  /** Marks the span as failed; the message is masked before it leaves the process. `at`: a `performance.now()`. */
  fail(message: string, at?: number): void;
  end(at?: number): void;
}

export interface StartSpanOptions {
  attributes?: SpanAttributes;
  /** The parent: an open span of this process, or a `traceparent` from another process. */
  parent?: TraceSpan | string;
}

/**
 * Starts spans. When tracing is off it hands out no-op spans and costs a function call:
 * callers never check whether tracing is on. Parents are always explicit (no ambient
 * context), so a span nests the same way in-process and across `mcp-serve`.
 */
export interface Tracer {
  readonly enabled: boolean;
  startSpan(name: string, options?: StartSpanOptions): TraceSpan;
}

export const TRACER = Symbol.for('awf.Tracer');
