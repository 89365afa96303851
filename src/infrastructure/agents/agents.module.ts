// AgentsModule: the agent providers (`provider:` of an agent step), each a @ProvidesAgent()
// class found by discovery, plus the MCP client module (the script agent drives the proxy with it).
// Add a provider by adding it to the list below; nothing else needs editing.
// Must never import the CLI, the workflow runner, or the tools/plugins modules.
import { Module } from '@nestjs/common';
import { McpClientModule } from '../mcp-client/mcp-client.module';
import { ClaudeAgentProvider } from './claude.provider';
import { CodexAgentProvider } from './codex.provider';
import { CopilotAgentProvider } from './copilot.provider';
import { GeminiAgentProvider } from './gemini.provider';
import { OpenAiCompatibleAgentProvider } from './openai-compatible.provider';
import { OpencodeAgentProvider } from './opencode.provider';
import { ScriptAgentProvider } from './script-agent.provider';
import { VibeAgentProvider } from './vibe.provider';

@Module({
  imports: [McpClientModule],
  providers: [
    ScriptAgentProvider,
    ClaudeAgentProvider,
    CodexAgentProvider,
    GeminiAgentProvider,
    OpencodeAgentProvider,
    OpenAiCompatibleAgentProvider,
    CopilotAgentProvider,
    VibeAgentProvider,
  ],
})
export class AgentsModule {}
