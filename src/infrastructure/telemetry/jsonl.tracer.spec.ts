import type { SpanRecord } from './span-record';
import { JsonLinesTracer } from './jsonl.tracer';

const STEP = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

function tracer(mask: (text: string) => string = (t) => t) {
  const records: SpanRecord[] = [];
  return {
    records,
    tracer: new JsonLinesTracer((r) => records.push(JSON.parse(JSON.stringify(r())) as SpanRecord), mask, 'svc'),
  };
}

describe('JsonLinesTracer', () => {
  it('writes a child of a remote parent with its trace id, the parent span id and a valid traceparent', () => {
    const { records, tracer: t } = tracer();
    const span = t.startSpan('tool.call Read', { parent: STEP, attributes: { 'tool.name': 'Read' } });
    expect(span.traceparent).toMatch(/^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-01$/);
    span.setAttributes({ 'tool.status': 'ok', 'tool.duration_ms': 1.5 });
    span.end();
    expect(records).toEqual([
      {
        name: 'tool.call Read',
        trace_id: '0af7651916cd43dd8448eb211c80319c',
        span_id: span.traceparent?.split('-')[2],
        parent_span_id: 'b7ad6b7169203331',
        service: 'svc',
        start: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        duration_ms: expect.any(Number),
        status: 'unset',
        attributes: { 'tool.name': 'Read', 'tool.status': 'ok', 'tool.duration_ms': 1.5 },
      },
    ]);
    expect(Math.abs(Date.parse(records[0].start) - Date.now())).toBeLessThan(60_000);
  });

  it('ended later than it happened (after the answer), records the time it is given', async () => {
    const { records, tracer: t } = tracer();
    const span = t.startSpan('tool.call Read');
    const at = performance.now();
    await new Promise((r) => setTimeout(r, 60));
    span.fail('boom', at);
    span.end(at);
    expect(records[0].duration_ms).toBeLessThan(50);
    expect(Date.parse(records[0].events?.[0]?.time ?? '')).toBeLessThanOrEqual(Date.parse(records[0].start) + 50);
  });

  it('nests a local child under its parent span and starts a new trace without a parent', () => {
    const { records, tracer: t } = tracer();
    const run = t.startSpan('workflow.run');
    const step = t.startSpan('step build', { parent: run });
    step.end();
    run.end();
    const [stepRecord, runRecord] = records;
    expect(runRecord.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(runRecord.trace_id).not.toMatch(/^0+$/);
    expect(runRecord.parent_span_id).toBeUndefined();
    expect(stepRecord).toMatchObject({ trace_id: runRecord.trace_id, parent_span_id: runRecord.span_id });
    expect(stepRecord.span_id).not.toBe(runRecord.span_id);
  });

  it('treats a malformed or all-zero traceparent as no parent', () => {
    const { records, tracer: t } = tracer();
    t.startSpan('a', { parent: 'not-a-traceparent' }).end();
    t.startSpan('b', { parent: '00-00000000000000000000000000000000-b7ad6b7169203331-01' }).end();
    expect(records.map((r) => r.parent_span_id)).toEqual([undefined, undefined]);
    expect(records[0].trace_id).not.toBe(records[1].trace_id);
  });

  it('writes nothing for a child of an unsampled parent, but passes the unsampled flag on', () => {
    const { records, tracer: t } = tracer();
    const span = t.startSpan('tool.call Bash', { parent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00' });
    expect(span.traceparent).toMatch(/-00$/);
    const child = t.startSpan('inner', { parent: span });
    child.end();
    span.end();
    expect(records).toEqual([]);
  });

  it('records a failure as error status plus an exception event, masked, and ignores calls after end', () => {
    const { records, tracer: t } = tracer((text) => text.replaceAll('hunter2', '***'));
    const span = t.startSpan('tool.call Bash', { attributes: { 'tool.args': 'pw hunter2' } });
    span.fail('denied for hunter2');
    span.end();
    span.setAttributes({ late: true });
    span.fail('late');
    span.end();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      status: 'error',
      status_message: 'denied for ***',
      attributes: { 'tool.args': 'pw ***' },
    });
    expect(records[0].events).toEqual([
      { name: 'exception', time: expect.any(String), attributes: { 'exception.message': 'denied for ***' } },
    ]);
    expect(records[0].attributes).not.toHaveProperty('late');
  });

  it('gives every span its own id', () => {
    const { records, tracer: t } = tracer();
    for (let i = 0; i < 2000; i++) t.startSpan('s', { parent: STEP }).end();
    expect(new Set(records.map((r) => r.span_id)).size).toBe(2000);
  });
});
