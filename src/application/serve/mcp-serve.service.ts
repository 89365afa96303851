import type { AppLogger } from '../../domain/ports/app-logger.port';
import { isAwfError } from '../../domain/errors/awf-error';
import type { ProcessLifetime } from '../../domain/ports/process-lifetime.port';
import type { ProxyStartFailures } from '../../domain/ports/proxy-start-failures.port';
import type { ProxyConfigSource } from '../../domain/ports/proxy-config-source.port';
import type { TelemetryControl } from '../../domain/ports/telemetry-control.port';
import type { ToolRouterFactory } from '../../domain/ports/tool-router-factory.port';
import type { ToolScopeResolver } from '../../domain/ports/tool-scope-resolver.port';
import type { ToolServerEdge } from '../../domain/ports/tool-server.port';
import { markStartPhase, startPhases } from './start-phases';

/** What `awf mcp-serve` works with, each behind its port (wired by ProxyModule). */
export interface McpServeDependencies {
  routers: ToolRouterFactory;
  configs: ProxyConfigSource;
  scopes: ToolScopeResolver;
  edge: ToolServerEdge;
  lifetime: ProcessLifetime;
  logger: AppLogger;
  telemetry?: TelemetryControl;
  /** Where a failure to open the step's tools is recorded for the owning `awf run`. */
  startFailures?: ProxyStartFailures;
}

/**
 * The `awf mcp-serve` use case: validate the step's config, open its tools, serve them until
 * the client closes stdin, a signal arrives, or the owner process is gone. Everything it
 * opened is closed before it returns, so Nest's shutdown hooks see a quiet process.
 */
export class McpServeService {
  constructor(private readonly deps: McpServeDependencies) {}

  async serve(configFile: string): Promise<void> {
    const { routers, configs, scopes, edge, lifetime, logger, telemetry, startFailures } = this.deps;
    markStartPhase('container');
    const config = configs.load(configFile);
    const scope = scopes.resolve(config);
    markStartPhase('config');
    // Spans are flushed by the telemetry module's shutdown hook, after serve() returns.
    await telemetry?.startForProxy(config.telemetry);
    // Upstream servers start here, once per step: awf run learns of a failure from the record.
    const router = await routers.open(scope).catch((err: unknown) => {
      if (isAwfError(err)) startFailures?.record(configFile, err);
      throw err;
    });
    markStartPhase('tools');
    let malformed = 0;
    const session = edge.open(router, {
      onMalformedFrame: (reason) => {
        malformed++;
        logger.debug({ reason }, 'malformed frame');
      },
    });
    const stop = (reason: string) => () => {
      logger.info({ reason }, 'mcp-serve stopping');
      void session.stop();
    };
    const onSignal = stop('signal');
    lifetime.signal.addEventListener('abort', onSignal, { once: true });
    const unwatch = lifetime.watchOwner(config.owner_pid, stop('owner process gone'));
    try {
      if (lifetime.signal.aborted) return;
      logger.info({ tools: router.list().length, root: scope.rootDir, step: scope.step }, 'mcp-serve ready');
      logger.debug({ ms: startPhases() }, 'mcp-serve start phases');
      await session.serve();
    } finally {
      unwatch();
      lifetime.signal.removeEventListener('abort', onSignal);
      if (malformed > 0) logger.warn({ malformed }, 'mcp-serve refused or dropped malformed frames');
      await router.close();
    }
  }
}
