import { randomFillSync } from 'node:crypto';
import type { SpanAttributes, StartSpanOptions, TraceSpan, Tracer } from '../../domain/ports/tracer.port';
import { maskAttributes } from './masked-attributes';
import { spanRecord, type SpanRecord } from './span-record';
import { formatTraceparent, type ParentContext, parseTraceparent } from '../../domain/model/traceparent';

/** TraceFlags.SAMPLED: a parent that was not sampled keeps its children out of the file too. */
const SAMPLED = 1;

/**
 * awf's own spans for the `file` and `console` exporters, written as the same JSON lines the
 * SDK path writes, without OpenTelemetry's span objects: no sampler, context or processor
 * chain per call (ADR 099). Parents are explicit as for every Tracer; a remote parent's
 * sampled flag is honoured as the SDK's default parent-based sampler does. String
 * attributes and failure messages are masked when the record is made, in the sink's batch after
 * the call's answer (ADR 237), and the sink masks the whole line too.
 * An ended span hands the sink a function that makes its record, so the sink decides when
 * that work is done (the exporter does it in batches, off the traced call's way back).
 */
export class JsonLinesTracer implements Tracer {
  readonly enabled = true;
  private lastParent?: { text: string; parsed: ParentContext | undefined; flags?: number };

  /**
   * `sample` is the configured sampler's decision (OTEL_TRACES_SAMPLER) for a root or a remote
   * parent; made once per remote parent, since every call of a step has the same one. A local
   * parent's decision is inherited, which is what each of the spec's samplers gives for a
   * child of a span of the same trace. Without it, the SDK's default: parent-based, always on.
   */
  constructor(
    private readonly sink: (record: () => SpanRecord) => void,
    readonly mask: (text: string) => string,
    readonly service: string,
    private readonly sample?: (traceId: string, parent?: ParentContext) => boolean,
  ) {}

  startSpan(name: string, options: StartSpanOptions = {}): TraceSpan {
    const { parent } = options;
    let traceId: string;
    let parentSpanId: string | undefined;
    let flags = SAMPLED;
    if (parent instanceof JsonLinesSpan) {
      ({ traceId, spanId: parentSpanId, flags } = parent);
    } else {
      const remote = typeof parent === 'string' ? this.remoteParent(parent) : undefined;
      traceId = remote?.traceId ?? randomId(16);
      parentSpanId = remote?.spanId;
      if (remote) flags = this.sample ? this.lastParent!.flags! : remote.traceFlags;
      else if (this.sample) flags = this.sample(traceId) ? SAMPLED : 0;
    }
    return new JsonLinesSpan(this, name, traceId, randomId(8), parentSpanId, flags, { ...options.attributes });
  }

  /** Every call of a step has the same remote parent: parse it once. */
  private remoteParent(traceparent: string): ParentContext | undefined {
    if (traceparent !== this.lastParent?.text) {
      const parsed = parseTraceparent(traceparent);
      const flags = parsed && this.sample ? (this.sample(parsed.traceId, parsed) ? SAMPLED : 0) : undefined;
      this.lastParent = { text: traceparent, parsed, flags };
    }
    return this.lastParent.parsed;
  }

  /** Called once by an ended span; unsampled spans only carried their context. */
  finish(span: JsonLinesSpan): void {
    if ((span.flags & SAMPLED) !== 0) this.sink(() => span.record());
  }
}

class JsonLinesSpan implements TraceSpan {
  private readonly startedAt = performance.now();
  private endedAt = 0;
  private ended = false;
  private error?: { message: string; at: number };

  constructor(
    private readonly tracer: JsonLinesTracer,
    private readonly name: string,
    readonly traceId: string,
    readonly spanId: string,
    private readonly parentSpanId: string | undefined,
    readonly flags: number,
    private readonly attributes: SpanAttributes,
  ) {}

  get traceparent(): string {
    return formatTraceparent(this.traceId, this.spanId, this.flags);
  }

  setAttributes(attributes: SpanAttributes): void {
    if (!this.ended) Object.assign(this.attributes, attributes);
  }

  fail(message: string, at = performance.now()): void {
    if (!this.ended) this.error = { message, at };
  }

  end(at = performance.now()): void {
    if (this.ended) return;
    this.ended = true;
    this.endedAt = at;
    this.tracer.finish(this);
  }

  /** The span as its JSON line's object; only once ended. */
  record(): SpanRecord {
    const mask = this.tracer.mask;
    const error = this.error && { message: mask(this.error.message), at: this.error.at };
    return spanRecord({
      name: this.name,
      traceId: this.traceId,
      spanId: this.spanId,
      parentSpanId: this.parentSpanId,
      service: this.tracer.service,
      start: isoAt(this.startedAt),
      durationMs: this.endedAt - this.startedAt,
      status: error ? 'error' : 'unset',
      statusMessage: error?.message,
      attributes: maskAttributes(this.attributes, mask),
      events: error
        ? [{ name: 'exception', time: isoAt(error.at), attributes: { 'exception.message': error.message } }]
        : [],
    });
  }
}

let second: { at: number; prefix: string } | undefined;

/** `toISOString()` of a monotonic time; spans of one second share the formatted date part. */
function isoAt(monotonicMs: number): string {
  const ms = Math.floor(performance.timeOrigin + monotonicMs);
  const at = ms - (ms % 1000);
  if (second?.at !== at) second = { at, prefix: new Date(at).toISOString().slice(0, 20) };
  return `${second.prefix}${String(ms - at).padStart(3, '0')}Z`;
}

// Ids come from one pooled buffer of OS randomness, refilled when used up: one syscall per
// few hundred spans instead of one per id.
const pool = Buffer.allocUnsafe(4096);
let offset = pool.length;

function randomId(bytes: number): string {
  for (;;) {
    if (offset + bytes > pool.length) {
      randomFillSync(pool);
      offset = 0;
    }
    const id = pool.toString('hex', offset, (offset += bytes));
    // An all-zero id is invalid in W3C trace context; one in 2^64 draws.
    if (!/^0+$/.test(id)) return id;
  }
}
