import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SpanRecord } from './span-record';
import { JsonLinesSpanExporter } from './jsonl-span.exporter';

const record = (name: string): SpanRecord => ({
  name,
  trace_id: 'a'.repeat(32),
  span_id: 'b'.repeat(16),
  start: new Date(0).toISOString(),
  duration_ms: 1,
  status: 'unset',
  attributes: {},
});
const lines = (file: string): string[] => readFileSync(file, 'utf8').split('\n').filter(Boolean);

describe('JsonLinesSpanExporter', () => {
  const dir = mkdtempSync(join(tmpdir(), 'awf-jsonl-exp-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('makes a span’s line after the traced call, in a batch that reaches the file on its own', async () => {
    const file = join(dir, 'batch.jsonl');
    const exporter = new JsonLinesSpanExporter({ file }, (t) => t);
    let made = 0;
    exporter.defer(() => (made++, record('tool.call Read')));
    expect(made).toBe(0); // nothing of the line is made while the call is on its way back
    for (let waited = 0; lines(file).length === 0 && waited < 5000; waited += 20)
      await new Promise((r) => setTimeout(r, 20));
    expect(lines(file).map((l) => (JSON.parse(l) as SpanRecord).name)).toEqual(['tool.call Read']);
    expect(made).toBe(1);
    await exporter.shutdown();
  });

  it('writes what is pending on flush and on shutdown, in end order, and nothing after shutdown', async () => {
    const file = join(dir, 'order.jsonl');
    const exporter = new JsonLinesSpanExporter({ file }, (t) => t.replaceAll('s3cret', '***'));
    for (let i = 0; i < 600; i++) exporter.defer(() => record(`span ${i} s3cret`)); // more than one batch
    await exporter.forceFlush();
    expect(lines(file)).toHaveLength(600);
    exporter.defer(() => record('last'));
    await exporter.shutdown();
    exporter.defer(() => record('after shutdown'));
    const names = lines(file).map((l) => (JSON.parse(l) as SpanRecord).name);
    expect(names).toEqual([...Array.from({ length: 600 }, (_, i) => `span ${i} ***`), 'last']);
  });
});
