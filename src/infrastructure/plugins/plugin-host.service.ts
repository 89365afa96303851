import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import { APP_LOGGER } from '../../domain/ports/tokens';
import { type EphemeralCert, generateEphemeralCert } from '../../sdk/wire/auto-mtls';
import type { HandshakeEndpoint } from '../../sdk/wire/handshake';
import type { OperationSchemaMessage } from '../../sdk/wire/messages';
import { PluginConnection } from './plugin-connection';
import type { DiscoveredPlugin } from './plugin-manifest';
import { PluginProcess } from './plugin-process';
import { PluginStateStore } from './plugin-state.store';

/** A crashed plugin is started again on its next call, at most this many times per host. */
export const MAX_RESTARTS = 3;

export interface RunningPlugin {
  name: string;
  process: PluginProcess;
  connection: PluginConnection;
  endpoint: HandshakeEndpoint;
  operations: OperationSchemaMessage[];
}

/**
 * Starts plugins on demand and owns their processes: handshake, health, GetInfo, Init
 * with the plugin's config, ListOperations. Concurrent requests for one plugin share one
 * start. Everything started is stopped in `stopAll` (Shutdown RPCs, SIGTERM, SIGKILL after
 * 2 s), which Nest calls on module destroy.
 */
@Injectable()
export class PluginHost implements OnModuleDestroy {
  private readonly running = new Map<string, Promise<RunningPlugin>>();
  private readonly restarts = new Map<string, number>();
  private hostCert?: EphemeralCert;

  constructor(
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
    private readonly state: PluginStateStore,
  ) {}

  /**
   * The running plugin, started (or restarted after a crash, within the budget) if needed;
   * `handshakeTimeoutMs` bounds a start (default: handshakeTimeoutMs()).
   */
  async acquire(plugin: DiscoveredPlugin, handshakeTimeoutMs?: number): Promise<RunningPlugin> {
    const current = this.running.get(plugin.name);
    if (current) {
      const live = await current.catch(() => undefined);
      if (live?.process.alive) return live;
      // Another caller may have started a replacement while we waited: share it.
      if (this.running.get(plugin.name) !== current) return this.acquire(plugin, handshakeTimeoutMs);
      if (live) {
        const count = (this.restarts.get(plugin.name) ?? 0) + 1;
        if (count > MAX_RESTARTS) {
          throw new AwfError(
            ErrorCodes.PLUGIN_CRASHED,
            `plugin ${plugin.name} crashed ${count} times; awf no longer restarts it in this session`,
            { plugin: plugin.name },
            'See the plugin\'s stderr in the log (field "plugin").',
          );
        }
        this.restarts.set(plugin.name, count);
        this.logger.warn({ plugin: plugin.name, restart: count }, 'restarting crashed plugin');
        live.connection.close();
      }
    }
    const started = this.start(plugin, handshakeTimeoutMs);
    this.running.set(plugin.name, started);
    return started;
  }

  isRunning(name: string): boolean {
    return this.running.has(name);
  }

  async stop(name: string): Promise<void> {
    const entry = this.running.get(name);
    if (!entry) return;
    this.running.delete(name);
    const plugin = await entry.catch(() => undefined);
    if (!plugin) return;
    await plugin.process.stop(() => plugin.connection.shutdown());
    plugin.connection.close();
    this.logger.debug({ plugin: name }, 'plugin stopped');
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.running.keys()].map((name) => this.stop(name)));
  }

  onModuleDestroy(): Promise<void> {
    return this.stopAll();
  }

  private async start(plugin: DiscoveredPlugin, handshakeTimeoutMs?: number): Promise<RunningPlugin> {
    if (!plugin.launch) {
      throw new AwfError(
        ErrorCodes.PLUGIN_BINARY_MISSING,
        `plugin ${plugin.name} cannot be started: ${plugin.problem ?? 'no executable'}`,
        { plugin: plugin.name, dir: plugin.dir },
      );
    }
    const log = this.logger.child({ plugin: plugin.name });
    this.hostCert ??= generateEphemeralCert();
    const { process: child, endpoint } = await PluginProcess.start(plugin.name, plugin.launch, {
      logger: this.logger,
      clientCertPem: this.hostCert.certPem,
      handshakeTimeoutMs,
    });
    const connection = new PluginConnection(endpoint, this.hostCert, log);
    try {
      connection.drainStdio();
      await connection.health();
      await connection.getInfo();
      await connection.init(this.state.config(plugin.name));
      const operations = await connection.listOperations();
      log.debug(
        { plugin_pid: child.pid, tls: Boolean(endpoint.certDer), operations: operations.length },
        'plugin started',
      );
      return { name: plugin.name, process: child, connection, endpoint, operations };
    } catch (err) {
      await child.stop(() => connection.shutdown(500));
      connection.close();
      throw new AwfError(
        ErrorCodes.PLUGIN_START_FAILED,
        `plugin ${plugin.name} failed to start: ${(err as Error).message.split('\n')[0]}${child.reasonNote()}`,
        { plugin: plugin.name },
        undefined,
        { cause: err },
      );
    }
  }
}
