import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ECHO_EXTENSION, projectWithExtensions, REPO_ROOT } from '../support/cli';
import { startOtlpReceiver } from '../support/telemetry-otlp-receiver';
import { startRawServe } from '../support/telemetry-serve';

const PROBE = resolve(REPO_ROOT, 'test/fixtures/telemetry/require-probe.js');
/** Anything of OpenTelemetry but the API package, and nestjs-otel, count as "the SDK" here. */
const SDK_MODULE = /\/node_modules\/(@opentelemetry\/(?!api\/)|nestjs-otel\/)/;
/**
 * The probe reads require.cache, which sees packages only as separate files: run the tsc
 * output (AWF_NO_BUNDLE=1). The bundle keeps the same laziness through esbuild's per-module
 * wrappers, evaluated on first require, but hides it from require.cache.
 */
const UNBUNDLED = { AWF_NO_BUNDLE: '1' };

describe('tracing off costs nothing: no OpenTelemetry SDK module is loaded', () => {
  const project = projectWithExtensions([ECHO_EXTENSION]);
  afterAll(() => project.cleanup());

  async function loadedModules(config: Record<string, unknown>): Promise<string[]> {
    const out = join(project.dir, `probe-${Math.random().toString(36).slice(2)}.json`);
    const serve = await startRawServe(
      project.dir,
      { step: 'probe', ...config },
      { ...UNBUNDLED, NODE_OPTIONS: `--require ${PROBE}`, AWF_PROBE_OUT: out },
    );
    const [answer] = await serve.call([{ name: 'echo', arguments: { text: 'x' } }]);
    expect(answer).toMatchObject({ result: { content: [{ text: 'x' }] } });
    expect(await serve.stop('stdin')).toBe(0);
    return JSON.parse(readFileSync(out, 'utf8')) as string[];
  }

  it('serves and calls tools with no telemetry configured, and never requires the SDK', async () => {
    const loaded = await loadedModules({ events_path: join(project.dir, 'events.jsonl') });
    expect(loaded.filter((f) => SDK_MODULE.test(f))).toEqual([]);
  });

  it('does load it once an exporter is configured (the probe sees what it should)', async () => {
    const loaded = await loadedModules({ telemetry: { exporter: 'file', file: join(project.dir, 'spans.jsonl') } });
    expect(loaded.some((f) => f.includes('/@opentelemetry/sdk-trace-node/'))).toBe(true);
    expect(loaded.some((f) => f.includes('/@opentelemetry/exporter-trace-otlp-proto/'))).toBe(false);
    expect(loaded.some((f) => /\/(sdk-metrics|nestjs-otel)\//.test(f))).toBe(false);
  });

  it('loads the metrics SDK and nestjs-otel only when metrics are on, and never its host metrics', async () => {
    const sink = await startOtlpReceiver();
    const metricsTo = (endpoint: string) => ({
      telemetry: { exporter: 'none', metrics: { exporter: 'otlp', endpoint: `${endpoint}/v1/metrics` } },
    });
    const loaded = await loadedModules(metricsTo(sink.endpoint)).finally(() => sink.close());
    // A collector that is down is known before anything is loaded for it.
    expect((await loadedModules(metricsTo('http://127.0.0.1:9'))).filter((f) => SDK_MODULE.test(f))).toEqual([]);
    expect(loaded.some((f) => f.includes('/@opentelemetry/sdk-metrics/'))).toBe(true);
    expect(loaded.some((f) => f.includes('/nestjs-otel/lib/metrics/metric.service.js'))).toBe(true);
    expect(loaded.some((f) => f.includes('/@opentelemetry/host-metrics/'))).toBe(false);
    expect(loaded.some((f) => f.includes('/@opentelemetry/sdk-trace-node/'))).toBe(false);
  });
});
