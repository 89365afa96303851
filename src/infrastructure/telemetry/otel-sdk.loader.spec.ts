import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
    const loaded = loadTracing(
      { exporter: 'file', file, serviceName: 'svc' },
      (t) => t.replaceAll('s3cret', '***'),
      () => undefined,
    );
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

  it.each([
    ['always_off', undefined, 0],
    ['traceidratio', 0, 0],
    ['traceidratio', 1, 2],
    ['parentbased_always_off', undefined, 1],
  ] as const)('keeps or drops spans as OTEL_TRACES_SAMPLER=%s (ratio %s) says', async (name, ratio, written) => {
    const file = join(dir, `sampled-${name}-${ratio}.jsonl`);
    const loaded = loadTracing(
      { exporter: 'file', file, sampler: { name, ratio } },
      (t) => t,
      () => undefined,
    );
    loaded.tracer.startSpan('root').end();
    // A sampled remote parent: parent-based samplers follow it, the others decide for themselves.
    loaded.tracer.startSpan('child', { parent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' }).end();
    await loaded.shutdown();
    api.trace.disable();
    const lines = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : [];
    expect(lines).toHaveLength(written);
  });
});
