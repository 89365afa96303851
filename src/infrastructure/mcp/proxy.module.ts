// ProxyModule: the MCP edge. Contributes McpServeService (what `awf mcp-serve` runs) and
// is the only module whose files import @modelcontextprotocol/sdk, and those lazily.
// Depends on CoreModule's tokens only; must never import ToolsModule, PluginsModule or
// any provider directly: the tools it serves are found by discovery.
import { Module } from '@nestjs/common';
import { McpServeService } from './mcp-serve.service';

@Module({
  providers: [McpServeService],
  exports: [McpServeService],
})
export class ProxyModule {}
