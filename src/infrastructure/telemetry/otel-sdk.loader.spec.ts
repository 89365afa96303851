import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as api from '@opentelemetry/api';
import { loadTracing } from './otel-sdk.loader';

describe('loadTracing with the file exporter', () => {
  const dir = mkdtempSync(join(tmpdir(), 'awf-otel-loader-'));
  afterAll(() => {
    api.trace.disable();
    rmSync(dir, { recursive: true, force: true });
  });

  it("writes awf's own spans and an extension's @opentelemetry/api spans to the same file, as the same lines", async () => {
    const file = join(dir, 'spans.jsonl');
    const loaded = loadTracing({ exporter: 'file', file, serviceName: 'svc' }, (t) => t.replaceAll('s3cret', '***'));
    loaded.tracer.startSpan('tool.call Read', { attributes: { note: 'has s3cret' } }).end();
    const extension = api.trace
      .getTracer('my-extension')
      .startSpan('ext.work', { attributes: { note: 'also s3cret' } });
    extension.end();
    await loaded.shutdown();
    const records = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.map((r) => r.name)).toEqual(['tool.call Read', 'ext.work']);
    for (const r of records) {
      expect(Object.keys(r)).toEqual([
        'name',
        'trace_id',
        'span_id',
        'service',
        'start',
        'duration_ms',
        'status',
        'attributes',
      ]);
      expect(r).toMatchObject({ service: 'svc', status: 'unset' });
    }
    expect(readFileSync(file, 'utf8')).not.toContain('s3cret');
  });
});
