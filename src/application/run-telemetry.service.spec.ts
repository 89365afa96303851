import type { ToolCallEvent } from '../domain/model/tool-call-event';
import type { RunHistory, RunRecordMeta } from '../domain/ports/run-history.port';
import type { SpanAttributes, StartSpanOptions, TraceSpan, Tracer } from '../domain/ports/tracer.port';
import { RunTelemetry } from './run-telemetry.service';

class RecordedSpan implements TraceSpan {
  attributes: SpanAttributes = {};
  failed?: string;
  ended = false;
  constructor(
    readonly name: string,
    readonly options: StartSpanOptions,
    readonly traceparent: string,
  ) {}
  setAttributes(a: SpanAttributes) {
    Object.assign(this.attributes, a);
  }
  fail(message: string) {
    this.failed = message;
  }
  end() {
    this.ended = true;
  }
}

class RecordingTracer implements Tracer {
  readonly enabled = true;
  readonly spans: RecordedSpan[] = [];
  startSpan(name: string, options: StartSpanOptions = {}): TraceSpan {
    const span = new RecordedSpan(
      name,
      options,
      `00-${'a'.repeat(32)}-${String(this.spans.length).padStart(16, '0')}-01`,
    );
    this.spans.push(span);
    return span;
  }
}

const event = (tool: string, duration_ms: number, status: 'ok' | 'error' = 'ok'): ToolCallEvent => ({
  tool,
  source: 'builtin',
  start: '',
  duration_ms,
  status,
  args_shape: {},
});

describe('RunTelemetry', () => {
  const saved: Array<{ meta: RunRecordMeta; dir?: string }> = [];
  const history: RunHistory = {
    allocate: () => '/runs/r',
    dirOf: () => '/runs/r',
    eventsPath: () => '/runs/r/s.events.jsonl',
    load: () => {
      throw new Error('unused');
    },
    readEvents: () => [],
    startEvents: () => undefined,
    appendEvents: () => undefined,
    saveMeta: (meta, dir) => void saved.push({ meta, dir }),
  };

  it('parents the run under TRACEPARENT, the steps under the run', () => {
    const tracer = new RecordingTracer();
    const telemetry = new RunTelemetry(tracer, { TRACEPARENT: `00-${'b'.repeat(32)}-${'c'.repeat(16)}-01` }, history);
    const run = telemetry.startRun('demo', 'r');
    const step = telemetry.startStep(run, { name: 'review', type: 'agent', provider: 'claude' });
    expect(tracer.spans[0]).toMatchObject({
      name: 'workflow.run',
      options: {
        parent: `00-${'b'.repeat(32)}-${'c'.repeat(16)}-01`,
        attributes: { 'awf.workflow': 'demo', 'awf.run_id': 'r' },
      },
    });
    expect(tracer.spans[1].options).toMatchObject({
      parent: run,
      attributes: { 'awf.step': 'review', 'awf.step.type': 'agent', 'awf.step.provider': 'claude' },
    });
    expect(step.traceparent).toBe(tracer.spans[1].traceparent);
  });

  it('ignores a malformed TRACEPARENT', () => {
    const tracer = new RecordingTracer();
    new RunTelemetry(tracer, { TRACEPARENT: 'garbage' }, history).startRun('demo', 'r');
    expect(tracer.spans[0].options.parent).toBeUndefined();
  });

  it('ends a step with its status and the summary of its audit trail', () => {
    const tracer = new RecordingTracer();
    const telemetry = new RunTelemetry(tracer, {}, history);
    const span = telemetry.startStep(telemetry.startRun('demo', 'r'), { name: 'review', type: 'agent' });
    const calls = telemetry.finishStep(
      span,
      {
        name: 'review',
        status: 'failure',
        duration_ms: 120,
        exit_code: 1,
        error: { code: 'EXECUTION.AGENT.FAILED', message: 'agent exited 1' },
      },
      [event('Read', 2), event('Bash', 90, 'error')],
    );
    expect(calls).toEqual({
      tool_summary: { calls: 2, errors: 1, slowest: { tool: 'Bash', duration_ms: 90 } },
      events: [event('Read', 2), event('Bash', 90, 'error')],
    });
    expect(tracer.spans[1]).toMatchObject({
      ended: true,
      failed: 'agent exited 1',
      attributes: {
        'awf.step.status': 'failure',
        'awf.step.tool_calls': 2,
        'awf.step.tool_errors': 1,
        'awf.step.exit_code': 1,
      },
    });
  });

  it('ends the run and writes run.json into the run directory', () => {
    const tracer = new RecordingTracer();
    const telemetry = new RunTelemetry(tracer, {}, history);
    const run = telemetry.startRun('demo', 'r');
    telemetry.finishRun(
      run,
      { workflow: 'demo', run_id: 'r', status: 'success', duration_ms: 800 },
      '/runs/r',
      new Date('2026-11-30T05:00:00Z'),
    );
    expect(tracer.spans[0]).toMatchObject({
      ended: true,
      attributes: { 'awf.run.status': 'success', 'awf.run.duration_ms': 800 },
    });
    expect(saved.at(-1)).toMatchObject({
      dir: '/runs/r',
      meta: { run_id: 'r', workflow: 'demo', status: 'success', started_at: '2026-11-30T05:00:00.000Z' },
    });
  });
});
