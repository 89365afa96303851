import { Injectable } from '@nestjs/common';
import type { ToolRouter } from '../../domain/ports/tool-router.port';
import type { ToolServerEdge, ToolServerHooks, ToolServerSession } from '../../domain/ports/tool-server.port';
import { AWF_VERSION } from '../../version';
import { McpStdioServer } from './mcp-stdio.server';

/** The name `awf mcp-serve` gives itself in `initialize`. */
export const MCP_SERVER_NAME = 'awf-mcp-server';

/** The ToolServerEdge of `awf mcp-serve`: MCP over this process's stdin and stdout. */
@Injectable()
export class McpStdioEdge implements ToolServerEdge {
  open(router: ToolRouter, hooks: ToolServerHooks = {}): ToolServerSession {
    return new McpStdioServer(router, {
      name: MCP_SERVER_NAME,
      version: AWF_VERSION,
      onMalformedFrame: hooks.onMalformedFrame,
      onFirstAnswer: hooks.onFirstAnswer,
    });
  }
}
