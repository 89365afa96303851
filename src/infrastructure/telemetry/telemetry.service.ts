import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { ProxyTelemetryConfig } from '../../domain/proxy/proxy-config';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import type { TelemetryControl, TelemetrySettings } from '../../domain/ports/telemetry-control.port';
import { APP_LOGGER, SECRET_MASKER } from '../../domain/ports/tokens';
import type { StartSpanOptions, TraceSpan, Tracer } from '../../domain/ports/tracer.port';
import {
  type MetricsRecorder,
  type QueueDepth,
  type QueuedRunMeasure,
  NOOP_METRICS,
  type RunMeasure,
  type StepMeasure,
  type ToolCallMeasure,
} from '../../domain/ports/metrics.port';
import { proxyTelemetryOf, settingsFromProxyConfig } from './proxy-telemetry';
import { collectorAnswers, otlpTarget } from './otlp-exporters';
import { DEFAULT_EXPORT_TIMEOUT_MS } from './telemetry-settings';

type Warn = (fields: object, message: string) => void;

const NOOP_SPAN: TraceSpan = Object.freeze({
  traceparent: undefined,
  setAttributes: () => undefined,
  fail: () => undefined,
  end: () => undefined,
});

/** Tracing off: one shared frozen span, no OpenTelemetry code loaded. */
const NOOP_TRACER: Tracer = Object.freeze({ enabled: false, startSpan: (): TraceSpan => NOOP_SPAN });

/** The most a flush at exit may take: under the 5 s a parent waits before SIGKILL. */
const MAX_SHUTDOWN_MS = 4000;
/** What a flush may take beyond one export's timeout (the file exporter's last write, the SDK's hops). */
const SHUTDOWN_SLACK_MS = 250;

/**
 * The process's tracer and metrics recorder. Each is a no-op until `start` is given an
 * exporter for it; only then is its SDK required. An exporter that cannot start (an
 * unwritable trace file) is logged and that signal stays off. Nest's shutdown hook flushes
 * both, within one export timeout, so `mcp-serve` exports its last spans whether it stops on
 * stdin close, on SIGTERM or on owner loss, and a collector that is down never holds an exit.
 */
@Injectable()
export class TelemetryService implements Tracer, TelemetryControl, OnApplicationShutdown {
  private active: Tracer = NOOP_TRACER;
  private meters: MetricsRecorder = NOOP_METRICS;
  private current: TelemetrySettings = { exporter: 'none' };
  private started = false;
  private stops: Array<() => Promise<void>> = [];

  constructor(
    @Inject(SECRET_MASKER) private readonly masker: SecretMasker,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  get enabled(): boolean {
    return this.active.enabled;
  }

  /** The METRICS_RECORDER providers get: one object, forwarding to the recorder in force. */
  readonly recorder: MetricsRecorder = ((service: TelemetryService): MetricsRecorder => ({
    get enabled() {
      return service.meters.enabled;
    },
    toolCall: (call: ToolCallMeasure) => service.meters.toolCall(call),
    step: (step: StepMeasure) => service.meters.step(step),
    run: (run: RunMeasure) => service.meters.run(run),
    queuedRun: (run: QueuedRunMeasure) => service.meters.queuedRun(run),
    observeQueue: (read: () => Promise<QueueDepth>) => service.meters.observeQueue(read),
  }))(this);

  startSpan(name: string, options?: StartSpanOptions): TraceSpan {
    return this.active.startSpan(name, options);
  }

  async start(settings: TelemetrySettings): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.current = { ...settings };
    const warn = (fields: object, message: string): void => this.logger.warn(fields, message);
    // A collector that is down or mute is known before any SDK is loaded: this process then
    // loads nothing for it, and the children it configures (each step's mcp-serve) send nothing
    // either, so it costs the run one probe and one warning (ADR 191).
    const [traces, metrics] = await Promise.all([
      settings.exporter !== 'otlp' || collectorAnswers('traces', otlpTarget('traces', settings), warn),
      !settings.metrics ||
        settings.metrics.exporter === 'none' ||
        collectorAnswers('metrics', otlpTarget('metrics', settings.metrics), warn),
    ]);
    if (!traces) this.current = { ...this.current, exporter: 'none' };
    if (!metrics) this.current = { ...this.current, metrics: undefined };
    if (this.current.exporter !== 'none') this.startTracing(settings, warn);
    if (this.current.metrics && this.current.metrics.exporter !== 'none') this.startMetrics(settings, warn);
  }

  private startTracing(settings: TelemetrySettings, warn: Warn): void {
    const mask = (text: string): string => this.masker.mask(text);
    const { loadTracing } = require('./otel-sdk.loader') as typeof import('./otel-sdk.loader');
    try {
      const loaded = loadTracing(settings, mask, warn);
      this.active = loaded.tracer;
      this.stops.push(loaded.shutdown);
    } catch (err) {
      // Losing traces must not cost the agent its tools or the run its result.
      this.current = { ...this.current, exporter: 'none' };
      warn(
        { exporter: settings.exporter, error: (err as Error).message },
        'tracing could not start; continuing without spans',
      );
    }
  }

  private startMetrics(settings: TelemetrySettings, warn: Warn): void {
    const { loadMetrics } = require('./otel-metrics.loader') as typeof import('./otel-metrics.loader');
    try {
      const loaded = loadMetrics(settings, warn);
      this.meters = loaded.recorder;
      this.stops.push(loaded.shutdown);
    } catch (err) {
      this.current = { ...this.current, metrics: undefined };
      warn({ error: (err as Error).message }, 'metrics could not start; continuing without them');
    }
  }

  startForProxy(config: ProxyTelemetryConfig | undefined): Promise<void> {
    return this.start(settingsFromProxyConfig(config));
  }

  settings(): Readonly<TelemetrySettings> {
    return this.current;
  }

  proxyTelemetry(traceparent?: string): ProxyTelemetryConfig {
    return proxyTelemetryOf(this.current, traceparent);
  }

  async shutdown(): Promise<void> {
    const stops = this.stops;
    this.stops = [];
    this.active = NOOP_TRACER;
    this.meters = NOOP_METRICS;
    if (stops.length === 0) return;
    const timeouts = [this.current.timeoutMs, this.current.metrics?.timeoutMs].filter((t) => t !== undefined);
    const budget = Math.min(MAX_SHUTDOWN_MS, Math.max(DEFAULT_EXPORT_TIMEOUT_MS, ...timeouts) + SHUTDOWN_SLACK_MS);
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, budget);
      timer.unref();
    });
    await Promise.race([Promise.all(stops.map((stop) => stop().catch(() => undefined))), expired]);
    clearTimeout(timer);
  }

  onApplicationShutdown(): Promise<void> {
    return this.shutdown();
  }
}
