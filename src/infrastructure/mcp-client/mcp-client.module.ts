// McpClientModule: the MCP client side, the official SDK `Client` over stdio behind the
// ToolClientConnector port: what the `script` agent drives `awf mcp-serve` with, exactly as an
// agent CLI would. The SDK is required lazily, so no other command loads it.
// Must never import the MCP edge (mcp-edge), the workflow runner or the CLI.
import { Module } from '@nestjs/common';
import { TOOL_CLIENT_CONNECTOR } from '../../domain/ports/tool-client.port';
import { McpStdioClientConnector } from './mcp-stdio.client';

@Module({
  providers: [{ provide: TOOL_CLIENT_CONNECTOR, useClass: McpStdioClientConnector }],
  exports: [TOOL_CLIENT_CONNECTOR],
})
export class McpClientModule {}
