import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTracing } from './otel-sdk.loader';

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('the file exporter, through the OpenTelemetry SDK', () => {
  const dir = mkdtempSync(join(tmpdir(), 'awf-jsonl-exp-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes each span as one masked JSON line the moment it ends, children under their parent', async () => {
    const file = join(dir, 'spans.jsonl');
    const { tracer, shutdown } = loadTracing(
      { exporter: 'file', file, serviceName: 'svc' },
      (t) => t.replaceAll('s3cret', '***'),
      () => undefined,
    );
    const parent = tracer.startSpan('awf.step review', { parent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01` });
    const child = tracer.startSpan('tool.call Read', { parent, attributes: { 'tool.name': 'Read' } });
    child.fail('no s3cret here');
    child.end();
    expect(lines(file)).toHaveLength(1);
    parent.end();
    await shutdown();
    tracer.startSpan('after shutdown').end();
    const [read, step] = lines(file);
    expect(Object.keys(read)).toEqual([
      'name',
      'trace_id',
      'span_id',
      'parent_span_id',
      'service',
      'start',
      'duration_ms',
      'status',
      'status_message',
      'attributes',
      'events',
    ]);
    expect(read).toMatchObject({
      name: 'tool.call Read',
      trace_id: 'a'.repeat(32),
      parent_span_id: step.span_id,
      service: 'svc',
      status: 'error',
      status_message: 'no *** here',
      attributes: { 'tool.name': 'Read' },
    });
    expect(step).toMatchObject({ name: 'awf.step review', parent_span_id: 'b'.repeat(16), status: 'unset' });
    expect(lines(file)).toHaveLength(2);
  });
});
