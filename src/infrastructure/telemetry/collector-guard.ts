import type { OtlpProtocol } from '../../domain/proxy/proxy-config';
import { probeCollector, withScheme } from './collector-probe';
import type { OtlpSignal } from './otel-environment';

/** ExportResultCode of @opentelemetry/core (SUCCESS 0, FAILED 1), without loading it here. */
const SUCCESS = 0;
const FAILED = 1;
/** After a failure, exports are dropped at once for this long, then one is tried again. */
const DOWN_FOR_MS = 30_000;

export interface ExportOutcome {
  code: number;
  error?: Error;
}

/** What a span exporter and a push metric exporter have in common. */
export interface OtlpExporter<T> {
  export(items: T, done: (result: ExportOutcome) => void): void;
  shutdown(): Promise<void>;
  forceFlush?(): Promise<void>;
}

/** What a guard probes: the first signal's full endpoint and protocol that named this collector. */
export interface ProbeTarget {
  url: string;
  protocol?: OtlpProtocol;
  signal: OtlpSignal;
}

/**
 * One collector as this process sees it. Before anything is loaded for it, it is asked for an
 * empty export bounded by `probeMs` (collector-probe.ts: a refused port answers in a
 * millisecond, a collector that accepts and never answers fails at `probeMs`), and after any failed
 * export it counts as down for 30 s: exports in that time are dropped at once instead of being
 * sent and retried, so a dead collector costs a run one connect, not the exporter's retries
 * at every flush. The first failure is reported once, naming the endpoint; later ones only
 * count. Traces and metrics to the same host share one guard, so one warning covers both.
 */
export class CollectorGuard {
  private up = false;
  private downUntil = 0;
  private probing?: Promise<boolean>;
  private warned = false;
  readonly dropped: Record<string, number> = {};

  constructor(
    readonly endpoint: string,
    private readonly target: ProbeTarget,
    private readonly probeMs: number,
    private readonly warn: (fields: object, message: string) => void,
  ) {}

  /** Whether an export may go out now. */
  admit(): Promise<boolean> {
    if (this.up) return Promise.resolve(true);
    if (Date.now() < this.downUntil) return Promise.resolve(false);
    this.probing ??= this.probe().then((ok) => {
      this.probing = undefined;
      if (ok) this.up = true;
      return ok;
    });
    return this.probing;
  }

  failed(error: Error | string | undefined): void {
    this.up = false;
    this.downUntil = Date.now() + DOWN_FOR_MS;
    if (this.warned) return;
    this.warned = true;
    // Not `instanceof Error`: errors of node's own modules may come from another realm (jest).
    const reason = typeof error === 'object' && error !== null ? error.message : (error ?? 'export failed');
    this.warn(
      { endpoint: this.endpoint, error: reason },
      `telemetry not sent to ${this.endpoint} (${reason}); the run goes on without it`,
    );
  }

  drop(what: string): void {
    this.dropped[what] = (this.dropped[what] ?? 0) + 1;
  }

  /** An exporter whose exports pass this guard; its other methods are the exporter's own. */
  wrap<T, E extends OtlpExporter<T>>(exporter: E, what: string): E {
    const guarded = Object.create(exporter) as E;
    guarded.export = (items: T, done: (result: ExportOutcome) => void): void => {
      void this.admit().then((ok) => {
        if (!ok) {
          this.drop(what);
          return done({ code: FAILED });
        }
        exporter.export(items, (result) => {
          if (result.code !== SUCCESS) this.failed(result.error ?? `${what} export failed`);
          done(result);
        });
      });
    };
    return guarded;
  }

  private async probe(): Promise<boolean> {
    const { url, protocol, signal } = this.target;
    const reason = await probeCollector(url, protocol, signal, this.probeMs);
    if (reason) this.failed(reason);
    return !reason;
  }
}

const guards = new Map<string, CollectorGuard>();

/** The process's guard for the collector `target` names (keyed by scheme, host and port). */
export function collectorGuard(
  target: ProbeTarget,
  probeMs: number,
  warn: (fields: object, message: string) => void,
): CollectorGuard {
  const { protocol, host } = new URL(withScheme(target.url));
  const key = `${protocol}//${host}`;
  let guard = guards.get(key);
  if (!guard) guards.set(key, (guard = new CollectorGuard(key, target, probeMs, warn)));
  return guard;
}
