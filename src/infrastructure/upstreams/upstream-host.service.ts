import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import { APP_LOGGER } from '../../domain/ports/tokens';
import type { UpstreamServerSpec } from '../../domain/proxy/upstream-server';
import type { UpstreamConnection } from './upstream-connection';
import { mcpAuthDir } from './oauth/oauth-credentials.store';

/** A crashed server is started again on its next call, at most this many times per process (as plugins, ADR 503). */
export const MAX_UPSTREAM_RESTARTS = 3;

/** Specs are read-only once parsed: each one's key is worked out once, not on every call. */
const keys = new WeakMap<UpstreamServerSpec, string>();

/**
 * Owns the connections to upstream MCP servers: one per definition, shared by the scopes
 * that name it, started on first need (concurrent callers share one start), restarted after
 * a crash within the budget, and closed on `stop` or when the container closes.
 */
@Injectable()
export class UpstreamHost implements OnModuleDestroy {
  private readonly running = new Map<string, Promise<UpstreamConnection>>();
  private readonly restarts = new Map<string, number>();
  private readonly watchers = new Map<string, Set<() => void>>();
  /** The started connections, once their start has settled: a call's synchronous way to its server. */
  private readonly settled = new Map<string, UpstreamConnection>();

  constructor(@Inject(APP_LOGGER) private readonly logger: AppLogger) {}

  /** The key of a definition: two steps may give one name different definitions. */
  static keyOf(spec: UpstreamServerSpec): string {
    let key = keys.get(spec);
    if (key === undefined) keys.set(spec, (key = JSON.stringify(spec)));
    return key;
  }

  /**
   * The running connection of `spec` when it has started and is alive, without a promise: the
   * common case of every call (ADR 182). Otherwise undefined, and the caller goes through acquire.
   */
  live(spec: UpstreamServerSpec): UpstreamConnection | undefined {
    const connection = this.settled.get(UpstreamHost.keyOf(spec));
    return connection?.alive ? connection : undefined;
  }

  /** `authDir`: where OAuth sign-ins are kept (`<data dir>/mcp-auth`); absent: the environment's data dir. */
  async acquire(spec: UpstreamServerSpec, authDir?: string): Promise<UpstreamConnection> {
    const key = UpstreamHost.keyOf(spec);
    const current = this.running.get(key);
    if (current) {
      const live = await current.catch(() => undefined);
      if (live?.alive) return live;
      if (this.running.get(key) !== current) return this.acquire(spec, authDir); // another caller restarted it
      if (live) {
        const count = (this.restarts.get(key) ?? 0) + 1;
        if (count > MAX_UPSTREAM_RESTARTS) {
          throw new AwfError(
            ErrorCodes.UPSTREAM_CRASHED,
            `MCP server "${spec.name}" crashed ${count} times; awf no longer restarts it in this session`,
            { server: spec.name },
            'See its stderr in the log (field "upstream").',
          );
        }
        this.restarts.set(key, count);
        this.logger.warn({ upstream: spec.name, restart: count }, 'restarting crashed MCP server');
        await live.close();
      }
    }
    // Required here, not at the top: the SDK client costs ~0.1 s to load, which a step without
    // upstream servers must not pay (bench: "MCP SDK client modules loaded by a step without upstreams").
    const { UpstreamConnection } = require('./upstream-connection') as typeof import('./upstream-connection');
    const started = UpstreamConnection.open(spec, this.logger, process.env, {
      dir: authDir ?? mcpAuthDir(),
      signIn: 'browser',
    });
    started.then(
      (c) => {
        if (this.running.get(key) === started) this.settled.set(key, c);
        c.watch(() => this.watchers.get(key)?.forEach((listener) => listener()));
      },
      () => undefined,
    );
    this.settled.delete(key);
    this.running.set(key, started);
    started.catch(() => this.running.get(key) === started && this.running.delete(key));
    return started;
  }

  /** Calls `listener` each time the server of `spec` changes its tools, across restarts; returns the unwatch. */
  watch(spec: UpstreamServerSpec, listener: () => void): () => void {
    const key = UpstreamHost.keyOf(spec);
    const listeners = this.watchers.get(key) ?? new Set();
    this.watchers.set(key, listeners.add(listener));
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.watchers.get(key) === listeners) this.watchers.delete(key);
    };
  }

  async stop(spec: UpstreamServerSpec): Promise<void> {
    const key = UpstreamHost.keyOf(spec);
    const entry = this.running.get(key);
    if (!entry) return;
    this.running.delete(key);
    this.settled.delete(key);
    await (await entry.catch(() => undefined))?.close();
  }

  async onModuleDestroy(): Promise<void> {
    const all = [...this.running.values()];
    this.running.clear();
    this.settled.clear();
    await Promise.all(all.map(async (c) => (await c.catch(() => undefined))?.close()));
  }
}
