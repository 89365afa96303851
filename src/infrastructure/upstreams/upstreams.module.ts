// UpstreamsModule: other MCP servers behind the proxy (docs/upstream-servers.md, ADR 180).
// Contributes UpstreamToolProvider (found by the router through @ProvidesTools) and the host
// that owns the connections; each listing is checked against the tool pins (ADR 253). The MCP SDK's
// Client (upstream-connection.ts, the one file that imports it) is required only when a scope
// names a server, so a step without upstreams loads none of it. Imports the domain (and the
// shared child-process guard and pin store of infrastructure/core) only; never another feature module.
import { Module } from '@nestjs/common';
import { UpstreamHost } from './upstream-host.service';
import { UpstreamToolProvider } from './upstream-tool.provider';

@Module({
  providers: [UpstreamHost, UpstreamToolProvider],
})
export class UpstreamsModule {}
