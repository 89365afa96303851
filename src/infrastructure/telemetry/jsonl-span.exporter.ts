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

/**
 * Writes finished spans as JSON lines, to a file (`file` exporter) or to stderr (`console`;
 * the SDK's own console exporter writes to stdout, which belongs to the protocol or the run).
 * Lines go through a coalescing stream: a busy spell's spans share one appended `write` of
 * whole lines, so `run` and its `mcp-serve` children can share one file without
 * interleaving lines, and what is buffered is written on shutdown and on process exit.
 */
export class JsonLinesSpanExporter implements SpanExporter {
  private stopped = false;
  private readonly fd: number;
  private readonly out: CoalescingFdStream;

  constructor(target: { file: string } | 'stderr', private readonly mask: (text: string) => string) {
    if (target === 'stderr') {
      this.fd = 2;
    } else {
      mkdirSync(dirname(target.file), { recursive: true });
      this.fd = openSync(target.file, 'a', 0o600);
    }
    this.out = drainOnExit(new CoalescingFdStream(this.fd));
  }

  /** One ended span, straight from {@link JsonLinesSpanProcessor}. */
  write(span: ReadableSpan): void {
    this.writeRecord(toSpanRecord(span));
  }

  /** One ended span of awf's own tracer (`JsonLinesTracer`), already in line form. */
  writeRecord(record: SpanRecord): void {
    if (!this.stopped) this.out.write(this.mask(`${JSON.stringify(record)}\n`));
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
    this.stopped = true;
    this.out.end();
    if (this.fd !== 2) closeSync(this.fd);
  }

  async forceFlush(): Promise<void> {
    this.out.flushSync();
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
