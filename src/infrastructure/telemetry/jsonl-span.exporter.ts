import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ReadableSpan, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { CoalescingFdStream, drainOnExit } from '../logging/coalescing-fd.stream';
import { type SpanRecord, toSpanRecord } from './span-record';

/** ExportResultCode.SUCCESS / FAILED of @opentelemetry/core, without loading it for two numbers. */
const SUCCESS = 0;
const FAILED = 1;
/** TraceFlags.SAMPLED of @opentelemetry/api. */
const SAMPLED = 1;
/** Ended spans wait this long, or until this many, before they become lines. */
const BATCH_MS = 20;
const BATCH_MAX = 256;

/**
 * Writes finished spans as JSON lines, to a file (`file` exporter) or to stderr (`console`;
 * the SDK's own console exporter writes to stdout, which belongs to the protocol or the run).
 * Lines go through a coalescing stream: a busy spell's spans share one appended `write` of
 * whole lines, so `run` and its `mcp-serve` children can share one file without
 * interleaving lines, and what is buffered is written on shutdown and on process exit.
 * An ended span becomes its line later, in a batch with the others that ended within 20 ms,
 * not while the call it traces is on its way back to the agent: the answer does not wait
 * for the span's JSON.
 */
export class JsonLinesSpanExporter implements SpanExporter {
  private stopped = false;
  private readonly fd: number;
  private readonly out: CoalescingFdStream;
  private pending: Array<() => SpanRecord> = [];
  private batch?: NodeJS.Timeout;

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
    this.out = drainOnExit(new CoalescingFdStream(this.fd, () => this.writePending()));
  }

  /** One ended span, straight from {@link JsonLinesSpanProcessor}. */
  write(span: ReadableSpan): void {
    this.defer(() => toSpanRecord(span));
  }

  /** One ended span of awf's own tracer (`JsonLinesTracer`); `record` is called once, later. */
  defer(record: () => SpanRecord): void {
    if (this.stopped) return;
    this.pending.push(record);
    if (this.pending.length >= BATCH_MAX) this.writePending();
    else this.batch ??= setTimeout(() => this.writePending(), BATCH_MS).unref();
  }

  private writePending(): void {
    clearTimeout(this.batch);
    this.batch = undefined;
    const spans = this.pending;
    this.pending = [];
    for (const record of spans) this.out.write(this.mask(`${JSON.stringify(record())}\n`));
  }

  export(spans: ReadableSpan[], done: (result: { code: number; error?: Error }) => void): void {
    if (this.stopped) return done({ code: FAILED, error: new Error('exporter is shut down') });
    try {
      for (const span of spans) this.write(span);
      done({ code: SUCCESS });
    } catch (err) {
      done({ code: FAILED, error: err as Error });
    }
  }

  async shutdown(): Promise<void> {
    if (this.stopped) return;
    this.out.end(); // writes what is pending first
    this.stopped = true;
    if (this.fd !== 2) closeSync(this.fd);
  }

  async forceFlush(): Promise<void> {
    this.out.flushSync(); // writes what is pending first
  }
}

/**
 * The `file` and `console` exporters' processor: an ended span is handed to the exporter at
 * once. The SDK's SimpleSpanProcessor does the same through a promise, a context switch and
 * a pending-export set per span, which tracing cannot afford at hundreds of calls a second.
 */
export class JsonLinesSpanProcessor implements SpanProcessor {
  constructor(private readonly exporter: JsonLinesSpanExporter) {}

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if ((span.spanContext().traceFlags & SAMPLED) !== 0) this.exporter.write(span);
  }

  forceFlush(): Promise<void> {
    return this.exporter.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.exporter.shutdown();
  }
}
