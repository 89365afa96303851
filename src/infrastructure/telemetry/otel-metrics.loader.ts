import type { Attributes, Counter, Histogram } from '@opentelemetry/api';
import type { PushMetricExporter, ViewOptions } from '@opentelemetry/sdk-metrics';
import type {
  MetricsRecorder,
  QueueDepth,
  QueuedRunMeasure,
  RunMeasure,
  StepMeasure,
  ToolCallMeasure,
} from '../../domain/ports/metrics.port';
import type { TelemetrySettings } from '../../domain/ports/telemetry-control.port';
import { resourceOf } from './otel-sdk.loader';
import { otlpExporter, otlpTarget } from './otlp-exporters';

export interface LoadedMetrics {
  recorder: MetricsRecorder;
  /** Exports what was recorded since the last export, then stops the provider. */
  shutdown(): Promise<void>;
}

type Warn = (fields: object, message: string) => void;

/** Milliseconds; the bucket bounds cover a 1 ms Read to a 10-minute agent step. */
const MS_BUCKETS = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000, 60_000, 300_000, 600_000];

/**
 * The one place that loads the OpenTelemetry metrics SDK and nestjs-otel, required when
 * metrics are on and never otherwise (mcp-serve's start pays nothing for them). The meter
 * provider is registered globally and the instruments come from nestjs-otel's MetricService,
 * so an extension's own `MetricService` counters go out with awf's, over the same exporter.
 * A long process exports every `intervalMs`; every process exports once more at shutdown.
 */
export function loadMetrics(settings: TelemetrySettings, warn: Warn): LoadedMetrics {
  const m = settings.metrics!;
  const api = require('@opentelemetry/api') as typeof import('@opentelemetry/api');
  const sdk = require('@opentelemetry/sdk-metrics') as typeof import('@opentelemetry/sdk-metrics');
  const exporter = otlpExporter<PushMetricExporter>('metrics', otlpTarget('metrics', m), warn);
  const interval = m.intervalMs ?? 60_000;
  const reader = new sdk.PeriodicExportingMetricReader({
    exporter,
    exportIntervalMillis: interval,
    exportTimeoutMillis: Math.min(m.timeoutMs ?? 1000, interval),
  });
  const histogram = (name: string): ViewOptions => ({
    instrumentName: name,
    aggregation: { type: sdk.AggregationType.EXPLICIT_BUCKET_HISTOGRAM, options: { boundaries: MS_BUCKETS } },
  });
  const provider = new sdk.MeterProvider({
    resource: resourceOf(settings),
    readers: [reader],
    views: ['mcp.tool.duration', 'awf.step.duration', 'awf.run.duration', 'awf.queue.wait', 'awf.queue.run'].map(
      histogram,
    ),
  });
  api.metrics.setGlobalMeterProvider(provider);
  const { MetricService } = require('nestjs-otel/lib/metrics/metric.service') as typeof import('nestjs-otel');
  return { recorder: new OtelMetricsRecorder(new MetricService()), shutdown: () => provider.shutdown() };
}

/** The instruments, named as MCP gateways name theirs (mcp.tool.*), with awf's own for steps and runs. */
class OtelMetricsRecorder implements MetricsRecorder {
  readonly enabled = true;
  private readonly calls: Counter;
  private readonly errors: Counter;
  private readonly duration: Histogram;
  private readonly decisions: Counter;
  private readonly steps: Histogram;
  private readonly runs: Histogram;
  private readonly queueWait: Histogram;
  private readonly queueRun: Histogram;

  constructor(private readonly service: import('nestjs-otel').MetricService) {
    this.calls = service.getCounter('mcp.tool.calls', { description: 'Tool calls through the proxy', unit: '{call}' });
    this.errors = service.getCounter('mcp.tool.errors', { description: 'Tool calls that failed', unit: '{call}' });
    this.duration = service.getHistogram('mcp.tool.duration', { description: 'Tool call duration', unit: 'ms' });
    this.decisions = service.getCounter('awf.policy.decisions', {
      description: 'Policy decisions on tool calls',
      unit: '{decision}',
    });
    this.steps = service.getHistogram('awf.step.duration', { description: 'Workflow step duration', unit: 'ms' });
    this.runs = service.getHistogram('awf.run.duration', { description: 'Workflow run duration', unit: 'ms' });
    this.queueWait = service.getHistogram('awf.queue.wait', {
      description: 'Time a queued run waited for a worker',
      unit: 'ms',
    });
    this.queueRun = service.getHistogram('awf.queue.run', {
      description: 'Time a worker ran a queued run',
      unit: 'ms',
    });
  }

  toolCall(call: ToolCallMeasure): void {
    const attributes: Attributes = { 'tool.name': call.tool, 'tool.source': call.source, 'tool.status': call.status };
    this.calls.add(1, attributes);
    this.duration.record(call.durationMs, attributes);
    if (call.status === 'error') this.errors.add(1, { 'tool.name': call.tool, 'tool.source': call.source });
    if (call.policy)
      this.decisions.add(1, { 'tool.name': call.tool, 'tool.source': call.source, 'policy.decision': call.policy });
  }

  step(step: StepMeasure): void {
    this.steps.record(step.durationMs, {
      'awf.workflow': step.workflow,
      'awf.step': step.step,
      'awf.step.type': step.type,
      'awf.step.status': step.status,
    });
  }

  run(run: RunMeasure): void {
    this.runs.record(run.durationMs, { 'awf.workflow': run.workflow, 'awf.run.status': run.status });
  }

  queuedRun(run: QueuedRunMeasure): void {
    const attributes = { 'awf.workflow': run.workflow, 'awf.run.status': run.status };
    this.queueWait.record(run.waitMs, attributes);
    this.queueRun.record(run.runMs, attributes);
  }

  observeQueue(read: () => Promise<QueueDepth>): void {
    const gauge = this.service.getObservableGauge('awf.queue.depth', {
      description: 'Runs on the queue by state (waiting, active, delayed)',
      unit: '{run}',
    });
    gauge.addCallback(async (result) => {
      // A queue that cannot be read just now reports nothing for this collection.
      const depth = await read().catch(() => undefined);
      if (depth) for (const [state, n] of Object.entries(depth)) result.observe(n, { 'awf.queue.state': state });
    });
  }
}
