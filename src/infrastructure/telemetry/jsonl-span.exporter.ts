import { appendFileSync, mkdirSync, writeSync } from 'node:fs';
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

  constructor(private readonly target: { file: string } | 'stderr', private readonly mask: (text: string) => string) {
    if (target !== 'stderr') mkdirSync(dirname(target.file), { recursive: true });
  }

  export(spans: ReadableSpan[], done: (result: { code: number; error?: Error }) => void): void {
    if (this.stopped) return done({ code: FAILED, error: new Error('exporter is shut down') });
    try {
      const text = this.mask(spans.map((s) => JSON.stringify(toSpanRecord(s))).join('\n') + '\n');
      if (this.target === 'stderr') writeSync(2, text);
      else appendFileSync(this.target.file, text, { mode: 0o600 });
      done({ code: SUCCESS });
    } catch (err) {
      done({ code: FAILED, error: err as Error });
    }
  }

  async shutdown(): Promise<void> {
    this.stopped = true;
  }

  async forceFlush(): Promise<void> {}
}
