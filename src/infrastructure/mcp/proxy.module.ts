// ProxyModule: the MCP edge. Contributes McpServeService (what `awf mcp-serve` runs, on
// awf's own JSON-RPC handling: no SDK and no zod in the proxy's start, see ADR 093). Its
// folder imports @modelcontextprotocol/sdk (the script agent's Client, lazily), as does only
// infrastructure/upstreams (the Client to other MCP servers, lazily too).
// Depends on CoreModule's tokens only; must never import ToolsModule, PluginsModule or
// any provider directly: the tools it serves are found by discovery.
import { Module } from '@nestjs/common';
import { McpServeService } from './mcp-serve.service';

@Module({
  providers: [McpServeService],
  exports: [McpServeService],
})
export class ProxyModule {}
