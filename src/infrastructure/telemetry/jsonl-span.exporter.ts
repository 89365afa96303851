import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { toSpanRecord } from './span-record';

/** ExportResultCode.SUCCESS / FAILED of @opentelemetry/core, without loading it for two numbers. */
const SUCCESS = 0;
const FAILED = 1;

/**
 * Writes finished spans as JSON lines, to a file (`file` exporter) or to stderr (`console`;
 * the SDK's own console exporter writes to stdout, which belongs to the protocol or the run).
 * Each batch is one `write`, appended, so `run` and its `mcp-serve` children can share one
 * file without interleaving lines.
 */
export class JsonLinesSpanExporter implements SpanExporter {
  private stopped = false;
  private readonly fd: number;

  constructor(target: { file: string } | 'stderr', private readonly mask: (text: string) => string) {
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
      const text = this.mask(spans.map((s) => JSON.stringify(toSpanRecord(s))).join('\n') + '\n');
      writeSync(this.fd, text);
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
