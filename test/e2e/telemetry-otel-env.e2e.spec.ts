import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { REPO_ROOT, scratchDir } from '../support/cli';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedMetric } from '../support/telemetry-otlp-receiver';
import { runAwfAsync } from '../support/telemetry-serve';

/** The review workflow (its agent step drives its real `awf mcp-serve`: two Reads and a Grep). */
const WORKFLOW = readFileSync(resolve(REPO_ROOT, 'test/fixtures/telemetry/review-with-tools.yaml'), 'utf8');

function project(): { dir: string; cleanup: () => void } {
  const p = scratchDir({ 'notes.txt': 'hello\n', '.awf/config.yaml': 'policy:\n  tools: {deny: [Grep]}\n' });
  mkdirSync(join(p.dir, '.awf', 'workflows'), { recursive: true });
  writeFileSync(join(p.dir, '.awf', 'workflows', 'review.yaml'), WORKFLOW);
  return p;
}

const points = (metrics: ReceivedMetric[], name: string) =>
  metrics.filter((m) => m.name === name).flatMap((m) => m.points.map((p) => ({ ...p, unit: m.unit, kind: m.kind })));

describe.each(['http/protobuf', 'grpc'] as const)('awf run with only OTEL_* variables set, over %s', (protocol) => {
  const p = project();
  let receiver: OtlpReceiver;
  let result: { status: number | null; stdout: string; stderr: string };

  beforeAll(async () => {
    receiver = await startOtlpReceiver(protocol);
    result = await runAwfAsync(['run', 'review'], {
      cwd: p.dir,
      env: {
        XDG_DATA_HOME: join(p.dir, 'xdg'),
        // AWF's Go exporter takes host:port for gRPC; the spec's URL form works too.
        OTEL_EXPORTER_OTLP_ENDPOINT:
          protocol === 'grpc' ? receiver.endpoint.slice('http://'.length) : receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        OTEL_EXPORTER_OTLP_HEADERS: 'x-awf-tenant=acme',
        OTEL_RESOURCE_ATTRIBUTES: 'service.name=checkout,deployment.environment=ci%20eu',
        // This machine is loaded: the last export at exit may take longer than awf's 1 s default.
        OTEL_EXPORTER_OTLP_TIMEOUT: '10000',
      },
    });
  });
  afterAll(async () => {
    await receiver.close();
    p.cleanup();
  });

  it('exports the whole trace with the service and resource the variables name', () => {
    expect(result.status).toBe(0);
    const names = receiver.spans.map((s) => s.name).sort();
    expect(names).toEqual([
      'step prepare',
      'step review',
      'tool.call Grep',
      'tool.call Read',
      'tool.call Read',
      'workflow.run',
    ]);
    const review = receiver.spans.find((s) => s.name === 'step review')!;
    for (const span of receiver.spans) {
      expect(span.service).toBe('checkout');
      expect(span.resource['deployment.environment']).toBe('ci eu');
      if (span.name.startsWith('tool.call')) expect(span.parentSpanId).toBe(review.spanId);
    }
    expect(receiver.spans.find((s) => s.name === 'tool.call Grep')!.attributes['policy.decision']).toBe('denied');
  });

  it('exports tool-call, policy, step and run metrics by tool, source and outcome', () => {
    const calls = points(receiver.metrics, 'mcp.tool.calls');
    expect(calls).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          value: 1,
          attributes: { 'tool.name': 'Read', 'tool.source': 'builtin', 'tool.status': 'ok' },
        }),
        expect.objectContaining({
          value: 1,
          attributes: { 'tool.name': 'Read', 'tool.source': 'builtin', 'tool.status': 'error' },
        }),
        expect.objectContaining({
          value: 1,
          attributes: { 'tool.name': 'Grep', 'tool.source': 'builtin', 'tool.status': 'error' },
        }),
      ]),
    );
    expect(points(receiver.metrics, 'mcp.tool.errors').reduce((n, x) => n + (x.value ?? 0), 0)).toBe(2);
    expect(points(receiver.metrics, 'awf.policy.decisions')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          value: 1,
          attributes: { 'tool.name': 'Grep', 'tool.source': 'builtin', 'policy.decision': 'denied' },
        }),
      ]),
    );
    const durations = points(receiver.metrics, 'mcp.tool.duration');
    expect(durations.every((d) => d.kind === 'histogram' && d.unit === 'ms')).toBe(true);
    expect(durations.reduce((n, d) => n + (d.count ?? 0), 0)).toBe(3);
    const steps = points(receiver.metrics, 'awf.step.duration');
    expect(steps.map((s) => s.attributes['awf.step']).sort()).toEqual(['prepare', 'review']);
    expect(steps.find((s) => s.attributes['awf.step'] === 'review')!.attributes).toMatchObject({
      'awf.workflow': 'review',
      'awf.step.type': 'agent',
      'awf.step.status': 'success',
    });
    expect(points(receiver.metrics, 'awf.run.duration')).toEqual([
      expect.objectContaining({ count: 1, attributes: { 'awf.workflow': 'review', 'awf.run.status': 'success' } }),
    ]);
    expect(receiver.metrics.every((m) => m.service === 'checkout')).toBe(true);
  });

  it('sends OTEL_EXPORTER_OTLP_HEADERS with every export, from both processes', () => {
    const paths = new Set(receiver.requests.map((r) => r.path));
    expect(paths.size).toBe(2); // traces and metrics
    expect(receiver.requests.length).toBeGreaterThanOrEqual(4); // awf run and the step's mcp-serve, each both
    for (const r of receiver.requests) expect(r.headers['x-awf-tenant']).toBe('acme');
  });
});

describe('a collector that is down or mute', () => {
  const p = project();
  afterAll(() => p.cleanup());

  /** `awf run review` exporting to `endpoint`: its exit status and the warnings naming it. */
  const runAgainst = async (endpoint: string) => {
    const result = await runAwfAsync(['run', 'review'], {
      cwd: p.dir,
      env: { XDG_DATA_HOME: join(p.dir, 'xdg'), OTEL_EXPORTER_OTLP_ENDPOINT: endpoint },
    });
    expect(result.stderr).toContain('✓ review  success');
    const warnings = result.stderr.split('\n').filter((l) => l.includes(`telemetry not sent to ${endpoint}`));
    return { status: result.status, warnings };
  };

  it('down: costs the run nothing but one warning that names the endpoint', async () => {
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    const { status, warnings } = await runAgainst(endpoint);
    expect(status).toBe(0);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warning: telemetry not sent to http:\/\/127\.0\.0\.1:\d+ \(connect ECONNREFUSED/);
  });

  it('accepting connections and never answering: found out once, at the start; no step process contacts it', async () => {
    const connections: Socket[] = [];
    const mute = createServer((s) => connections.push(s.on('error', () => undefined)));
    await new Promise<void>((ok) => mute.listen(0, '127.0.0.1', ok));
    const endpoint = `http://127.0.0.1:${(mute.address() as AddressInfo).port}`;
    try {
      const { status, warnings } = await runAgainst(endpoint);
      expect(status).toBe(0);
      expect(warnings).toEqual([
        `warning: telemetry not sent to ${endpoint} (no answer within 500 ms); the run goes on without it`,
      ]);
      // awf run's one probe (traces and metrics share the collector); the step's mcp-serve was told
      // telemetry is off, so nothing waited on this collector at the step's end or the run's.
      expect(connections).toHaveLength(1);
    } finally {
      for (const s of connections) s.destroy();
      await new Promise((ok) => mute.close(ok));
    }
  });
});

describe('OTEL_SDK_DISABLED=true', () => {
  const p = project();
  let receiver: OtlpReceiver;
  beforeAll(async () => (receiver = await startOtlpReceiver()));
  afterAll(async () => {
    await receiver.close();
    p.cleanup();
  });

  it('switches the exporters the variables asked for off, and a flag back on', async () => {
    const env = {
      XDG_DATA_HOME: join(p.dir, 'xdg'),
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_SDK_DISABLED: 'true',
    };
    expect((await runAwfAsync(['run', 'review'], { cwd: p.dir, env })).status).toBe(0);
    expect(receiver.requests).toEqual([]);
    expect((await runAwfAsync(['run', 'review', '--otel-exporter', 'otlp'], { cwd: p.dir, env })).status).toBe(0);
    expect(receiver.spans.map((s) => s.name)).toContain('workflow.run');
  });
});

function freePort(): Promise<number> {
  return new Promise((ok) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => ok(port));
    });
  });
}
