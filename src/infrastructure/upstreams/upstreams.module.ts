// UpstreamsModule: other MCP servers behind the proxy (docs/upstream-servers.md, ADR 180).
// Contributes UpstreamToolProvider (found by the router through @ProvidesTools), the host
// that owns the connections, and their prompts, resources and completions (MCP_CATALOGS, for
// /mcp); each listing is checked against the tool pins (ADR 253). The MCP SDK's
// Client (upstream-connection.ts, the one file that imports it) is required only when a scope
// names a server, so a step without upstreams loads none of it. Imports the domain (and the
// shared child-process guard and pin store of infrastructure/core) only; never another feature module.
import { Module } from '@nestjs/common';
import { MCP_CATALOGS } from '../../domain/ports/mcp-catalog.port';
import { UpstreamCatalogs } from './upstream-catalog';
import { UpstreamHost } from './upstream-host.service';
import { UpstreamToolProvider } from './upstream-tool.provider';

@Module({
  providers: [
    UpstreamHost,
    UpstreamToolProvider,
    UpstreamCatalogs,
    { provide: MCP_CATALOGS, useExisting: UpstreamCatalogs },
  ],
  exports: [MCP_CATALOGS],
})
export class UpstreamsModule {}
