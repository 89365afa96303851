import { Inject, Injectable, Optional } from '@nestjs/common';
import { buildToolScope } from '../../application/tool-scope.factory';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import type { TelemetryControl } from '../../domain/ports/telemetry-control.port';
import { TELEMETRY_CONTROL } from '../../domain/ports/telemetry-control.port';
import type { ToolDispatcherFactory } from '../../domain/ports/tool-dispatcher-factory.port';
import { APP_LOGGER, TOOL_ROUTER_FACTORY } from '../../domain/ports/tokens';
import { AWF_VERSION } from '../../version';
import { loadProxyConfig } from '../config/proxy-config.loader';
import { ProcessSignals } from '../core/process-signals.service';
import { McpStdioServer } from './mcp-stdio.server';
import { watchOwner } from './owner-watch';
import { markStartPhase, startPhases } from './start-phases';

export const MCP_SERVER_NAME = 'awf-mcp-server';

/**
 * `awf mcp-serve`: validate the step's config, open its tools, serve them over stdio until
 * the client closes stdin, a signal arrives, or the owner process is gone. Everything it
 * opened is closed before it returns, so Nest's shutdown hooks see a quiet process.
 */
@Injectable()
export class McpServeService {
  constructor(
    @Inject(TOOL_ROUTER_FACTORY) private readonly tools: ToolDispatcherFactory,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
    private readonly signals: ProcessSignals,
    @Optional() @Inject(TELEMETRY_CONTROL) private readonly telemetry?: TelemetryControl,
  ) {}

  async serve(configFile: string): Promise<void> {
    markStartPhase('container');
    const config = loadProxyConfig(configFile);
    const scope = buildToolScope(config);
    markStartPhase('config');
    // Spans are flushed by the telemetry module's shutdown hook, after serve() returns.
    await this.telemetry?.startForProxy(config.telemetry);
    const dispatcher = await this.tools.open(scope);
    markStartPhase('tools');
    let malformed = 0;
    const server = new McpStdioServer(dispatcher, {
      name: MCP_SERVER_NAME,
      version: AWF_VERSION,
      onMalformedFrame: (reason) => {
        malformed++;
        this.logger.debug({ reason }, 'malformed frame');
      },
      onFirstAnswer: () => {
        markStartPhase('first answer');
        this.logger.debug({ ms: startPhases() }, 'mcp-serve start phases');
      },
    });
    const stop = (reason: string) => () => {
      this.logger.info({ reason }, 'mcp-serve stopping');
      void server.stop();
    };
    const onSignal = stop('signal');
    this.signals.signal.addEventListener('abort', onSignal, { once: true });
    const unwatch = watchOwner(config.owner_pid, stop('owner process gone'));
    try {
      if (this.signals.signal.aborted) return;
      this.logger.info({ tools: dispatcher.list().length, root: scope.rootDir, step: scope.step }, 'mcp-serve ready');
      await server.serve();
    } finally {
      unwatch();
      this.signals.signal.removeEventListener('abort', onSignal);
      if (malformed > 0) this.logger.warn({ malformed }, 'mcp-serve refused or dropped malformed frames');
      await dispatcher.close();
    }
  }
}
