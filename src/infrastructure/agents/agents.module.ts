// AgentsModule: the agent providers (`provider:` of an agent step), each a @ProvidesAgent()
// class found by discovery, plus the MCP stdio client the script agent drives the proxy with.
// Add a provider by adding it to the list below; nothing else needs editing.
// Must never import the CLI, the workflow runner, or the tools/plugins modules.
import { Module } from '@nestjs/common';
import { TOOL_CLIENT_CONNECTOR } from '../../domain/ports/tool-client.port';
import { McpStdioClientConnector } from '../mcp/mcp-stdio.client';
import { ClaudeAgentProvider } from './claude.provider';
import { CodexAgentProvider } from './codex.provider';
import { GeminiAgentProvider } from './gemini.provider';
import { OpenAiCompatibleAgentProvider } from './openai-compatible.provider';
import { OpencodeAgentProvider } from './opencode.provider';
import { ScriptAgentProvider } from './script-agent.provider';

@Module({
  providers: [
    { provide: TOOL_CLIENT_CONNECTOR, useClass: McpStdioClientConnector },
    ScriptAgentProvider,
    ClaudeAgentProvider,
    CodexAgentProvider,
    GeminiAgentProvider,
    OpencodeAgentProvider,
    OpenAiCompatibleAgentProvider,
  ],
})
export class AgentsModule {}
