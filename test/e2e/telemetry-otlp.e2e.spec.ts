import { join } from 'node:path';
import { ECHO_EXTENSION, projectWithExtensions } from '../support/cli';
import { startOtlpReceiver, type OtlpReceiver } from '../support/telemetry-otlp-receiver';
import { startRawServe, STEP_SPAN_ID, STEP_TRACEPARENT, TRACE_ID } from '../support/telemetry-serve';

describe('awf mcp-serve exports tool-call spans over OTLP/HTTP protobuf, under the step span', () => {
  const project = projectWithExtensions([ECHO_EXTENSION]);
  let receiver: OtlpReceiver;

  beforeEach(async () => {
    receiver = await startOtlpReceiver();
  });
  afterEach(() => receiver.close());
  afterAll(() => project.cleanup());

  const config = () => ({
    step: 'review',
    run_id: 'run-otlp',
    workflow: 'demo',
    events_path: join(project.dir, 'events.jsonl'),
    telemetry: {
      exporter: 'otlp',
      endpoint: `${receiver.endpoint}/v1/traces`,
      traceparent: STEP_TRACEPARENT,
      service_name: 'awf-e2e',
    },
  });

  it('sends one span per call with its name, parent, attributes and error status, flushed when stdin closes', async () => {
    const serve = await startRawServe(project.dir, config(), { OTEL_EXPORTER_OTLP_HEADERS: 'x-awf-tenant=acme' });
    await serve.call([{ name: 'echo', arguments: { text: 'hello' } }, { name: 'explode' }]);
    expect(await serve.stop('stdin')).toBe(0);

    // The batch processor waits 5 s between exports; the process was gone before that, so
    // these spans can only be here because shutdown flushed them.
    expect(receiver.spans.map((s) => s.name).sort()).toEqual(['tool.call echo', 'tool.call explode']);
    for (const span of receiver.spans) {
      expect(span).toMatchObject({ traceId: TRACE_ID, parentSpanId: STEP_SPAN_ID, service: 'awf-e2e' });
      expect(span.attributes).toMatchObject({
        'tool.source': 'module:echo-tools',
        'awf.step': 'review',
        'awf.run_id': 'run-otlp',
      });
      expect(typeof span.attributes['tool.duration_ms']).toBe('number');
    }
    const echo = receiver.spans.find((s) => s.name === 'tool.call echo')!;
    expect(echo.attributes).toMatchObject({
      'tool.name': 'echo',
      'tool.status': 'ok',
      'tool.args_shape': '{"text":5}',
    });
    expect(JSON.stringify(echo.attributes)).not.toContain('hello');
    const explode = receiver.spans.find((s) => s.name === 'tool.call explode')!;
    expect(explode.attributes).toMatchObject({
      'tool.status': 'error',
      'tool.error': 'explode failed: kaboom from explode',
    });
    expect(explode.status).toEqual({ code: 'STATUS_CODE_ERROR', message: 'explode failed: kaboom from explode' });
    expect(receiver.requests.every((r) => r.headers['x-awf-tenant'] === 'acme')).toBe(true);
  });

  it('flushes its spans when it is stopped with SIGTERM', async () => {
    const serve = await startRawServe(project.dir, config());
    await serve.call([
      { name: 'echo', arguments: { text: 'one' } },
      { name: 'echo', arguments: { text: 'two' } },
    ]);
    await serve.stop('SIGTERM');
    expect(receiver.spans).toHaveLength(2);
    expect(receiver.spans.every((s) => s.parentSpanId === STEP_SPAN_ID)).toBe(true);
  });

  it('joins the trace from TRACEPARENT when the config carries none', async () => {
    const { telemetry, ...rest } = config();
    const serve = await startRawServe(
      project.dir,
      { ...rest, telemetry: { ...telemetry, traceparent: undefined } },
      { TRACEPARENT: STEP_TRACEPARENT },
    );
    await serve.call([{ name: 'echo', arguments: { text: 'x' } }]);
    await serve.stop('stdin');
    expect(receiver.spans).toEqual([expect.objectContaining({ traceId: TRACE_ID, parentSpanId: STEP_SPAN_ID })]);
  });

  it('honours OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_SERVICE_NAME when the config has no telemetry block', async () => {
    const { telemetry: _telemetry, ...rest } = config();
    const serve = await startRawServe(project.dir, rest, {
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_SERVICE_NAME: 'from-env',
    });
    await serve.call([{ name: 'echo', arguments: { text: 'x' } }]);
    await serve.stop('stdin');
    expect(receiver.spans).toEqual([expect.objectContaining({ name: 'tool.call echo', service: 'from-env' })]);
    expect(receiver.requests[0]).toMatchObject({ path: '/v1/traces', contentType: 'application/x-protobuf' });
  });
});
