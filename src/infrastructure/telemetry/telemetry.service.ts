import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { ProxyTelemetryConfig } from '../../domain/proxy/proxy-config';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import type { TelemetryControl, TelemetrySettings } from '../../domain/ports/telemetry-control.port';
import { APP_LOGGER, SECRET_MASKER } from '../../domain/ports/tokens';
import type { StartSpanOptions, TraceSpan, Tracer } from '../../domain/ports/tracer.port';
import { NOOP_TRACER } from './noop.tracer';
import { settingsFromProxyConfig } from './telemetry-settings';

/** Longer than the exporter's own timeout, shorter than the 5 s a parent waits before SIGKILL. */
const SHUTDOWN_BUDGET_MS = 4000;

/**
 * The process's tracer. It is a no-op until `start` is given an exporter other than
 * `none`; only then is the SDK required. An exporter that cannot start (an unwritable trace
 * file) is logged and tracing stays off. Nest's shutdown hook flushes it, so `mcp-serve`
 * exports its last spans whether it stops on stdin close, on SIGTERM or on owner loss.
 */
@Injectable()
export class TelemetryService implements Tracer, TelemetryControl, OnApplicationShutdown {
  private active: Tracer = NOOP_TRACER;
  private current: TelemetrySettings = { exporter: 'none' };
  private started = false;
  private stop?: () => Promise<void>;

  constructor(
    @Inject(SECRET_MASKER) private readonly masker: SecretMasker,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  get enabled(): boolean {
    return this.active.enabled;
  }

  startSpan(name: string, options?: StartSpanOptions): TraceSpan {
    return this.active.startSpan(name, options);
  }

  async start(settings: TelemetrySettings): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.current = { ...settings };
    if (settings.exporter === 'none') return;
    const mask = (text: string): string => this.masker.mask(text);
    const { loadTracing } = require('./otel-sdk.loader') as typeof import('./otel-sdk.loader');
    try {
      const loaded = loadTracing(settings, mask);
      this.active = loaded.tracer;
      this.stop = loaded.shutdown;
    } catch (err) {
      // Losing traces must not cost the agent its tools or the run its result.
      this.current = { ...settings, exporter: 'none' };
      this.logger.warn(
        { exporter: settings.exporter, error: (err as Error).message },
        'tracing could not start; continuing without spans',
      );
    }
  }

  startForProxy(config: ProxyTelemetryConfig | undefined): Promise<void> {
    return this.start(settingsFromProxyConfig(config));
  }

  settings(): Readonly<TelemetrySettings> {
    return this.current;
  }

  proxyTelemetry(traceparent?: string): ProxyTelemetryConfig {
    const { exporter, endpoint, file, serviceName } = this.current;
    return {
      exporter,
      ...(endpoint ? { endpoint } : {}),
      ...(file ? { file } : {}),
      ...(serviceName ? { service_name: serviceName } : {}),
      ...(traceparent ? { traceparent } : {}),
    };
  }

  async shutdown(): Promise<void> {
    const stop = this.stop;
    this.stop = undefined;
    this.active = NOOP_TRACER;
    if (!stop) return;
    let timer: NodeJS.Timeout | undefined;
    const budget = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SHUTDOWN_BUDGET_MS);
      timer.unref();
    });
    await Promise.race([stop().catch(() => undefined), budget]);
    clearTimeout(timer);
  }

  onApplicationShutdown(): Promise<void> {
    return this.shutdown();
  }
}
