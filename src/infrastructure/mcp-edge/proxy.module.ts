// ProxyModule: the MCP protocol edge of `awf mcp-serve`. Contributes the McpServeService use case
// (application/serve) wired to its ports: the stdio edge (the SDK's server), the proxy-config file
// reader, the process lifetime and the router factory, the scope resolver, the start-failure record
// awf run watches. Must never import ToolsModule, PluginsModule or any tool provider: the tools it
// serves are found by discovery.
import { Module } from '@nestjs/common';
import { McpServeService } from '../../application/serve/mcp-serve.service';
import { APP_LOGGER, type AppLogger } from '../../domain/ports/app-logger.port';
import { PROCESS_LIFETIME, type ProcessLifetime } from '../../domain/ports/process-lifetime.port';
import { PROXY_CONFIG_SOURCE, type ProxyConfigSource } from '../../domain/ports/proxy-config-source.port';
import { TELEMETRY_CONTROL, type TelemetryControl } from '../../domain/ports/telemetry-control.port';
import { TOOL_ROUTER_FACTORY } from '../../domain/ports/tokens';
import type { ToolRouterFactory } from '../../domain/ports/tool-router-factory.port';
import { TOOL_SCOPE_RESOLVER, type ToolScopeResolver } from '../../domain/ports/tool-scope-resolver.port';
import { TOOL_SERVER_EDGE, type ToolServerEdge } from '../../domain/ports/tool-server.port';
import { FileProxyConfigSource } from '../config/file-proxy-config.source';
import { FileProxyStartFailures } from '../config/file-proxy-start-failures';
import { RealToolScopeResolver } from '../config/tool-scope.resolver';
import { McpStdioEdge } from './mcp-stdio.edge';

@Module({
  providers: [
    { provide: TOOL_SERVER_EDGE, useFactory: () => new McpStdioEdge() },
    { provide: PROXY_CONFIG_SOURCE, useClass: FileProxyConfigSource },
    { provide: TOOL_SCOPE_RESOLVER, useClass: RealToolScopeResolver },
    {
      provide: McpServeService,
      useFactory: (
        routers: ToolRouterFactory,
        configs: ProxyConfigSource,
        scopes: ToolScopeResolver,
        edge: ToolServerEdge,
        lifetime: ProcessLifetime,
        logger: AppLogger,
        telemetry?: TelemetryControl,
      ) =>
        new McpServeService({
          routers,
          configs,
          scopes,
          edge,
          lifetime,
          logger,
          telemetry,
          startFailures: new FileProxyStartFailures(),
        }),
      inject: [
        TOOL_ROUTER_FACTORY,
        PROXY_CONFIG_SOURCE,
        TOOL_SCOPE_RESOLVER,
        TOOL_SERVER_EDGE,
        PROCESS_LIFETIME,
        APP_LOGGER,
        { token: TELEMETRY_CONTROL, optional: true },
      ],
    },
  ],
  exports: [McpServeService],
})
export class ProxyModule {}
