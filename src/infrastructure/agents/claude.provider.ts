import { Injectable } from '@nestjs/common';
import { ProvidesAgent } from '../../domain/ports/markers';
import { CliAgentProvider, type CliInvocation, type CliRunContext, type ParsedAgentOutput } from './cli-agent.provider';
import { asNumber, asRecord, parseNdjson } from './ndjson';

/**
 * Claude Code, headless (`claude -p … --output-format stream-json --verbose`). The proxy
 * goes in through a per-run `--mcp-config` file with `--strict-mcp-config`, so the user's
 * own MCP config is neither read nor touched; `--allowedTools mcp__awf-proxy` lets `-p`
 * mode call it, and with intercept_builtins `--tools ""` removes Claude's own tools.
 */
@Injectable()
@ProvidesAgent()
export class ClaudeAgentProvider extends CliAgentProvider {
  readonly name = 'claude';
  readonly canInterceptBuiltins = true;
  protected readonly binary = 'claude';
  protected override readonly systemPromptFlag = true;
  protected readonly installHint =
    'Install Claude Code (npm install -g @anthropic-ai/claude-code), or set options.binary to its path.';

  protected invocation({ request, prompt, options, dir }: CliRunContext): CliInvocation {
    const model = options.string('model');
    const allowed = options.list('allowed_tools');
    const args = ['-p', prompt, '--output-format', 'stream-json', '--verbose'];
    if (model) args.push('--model', model);
    if (options.boolean('dangerously_skip_permissions')) args.push('--dangerously-skip-permissions');
    const conversation = request.conversation;
    if (conversation?.sessionId) args.push('--resume', conversation.sessionId);
    if (conversation?.systemPrompt) args.push('--system-prompt', conversation.systemPrompt);
    const env: Record<string, string> = {};
    const proxy = request.proxy;
    if (proxy) {
      const config = {
        mcpServers: { [proxy.serverName]: { type: 'stdio', command: proxy.command, args: proxy.args, env: proxy.env } },
      };
      args.push('--mcp-config', dir.write('mcp-config.json', JSON.stringify(config)), '--strict-mcp-config');
      allowed.push(`mcp__${proxy.serverName}`);
      if (proxy.interceptBuiltins) args.push('--tools', '');
      // Later versions defer MCP tools behind a search tool, which --tools "" would remove.
      env.ENABLE_TOOL_SEARCH = 'false';
      // By default Claude sends its first request without waiting for slow MCP servers:
      // wait, so the proxy's tools are there from the first turn (and give a cold start time).
      env.MCP_CONNECTION_NONBLOCKING = 'false';
      env.MCP_TIMEOUT = '120000';
      env.MCP_CONNECT_TIMEOUT_MS = '120000';
    }
    if (allowed.length) args.push('--allowedTools', allowed.join(','));
    return { args, env };
  }

  protected parse(stdout: string): ParsedAgentOutput {
    const result = parseNdjson(stdout)
      .filter((e) => e.type === 'result')
      .pop();
    if (!result) return { output: '' };
    const usage = asRecord(result.usage);
    const input = ['input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens']
      .map((k) => asNumber(usage[k]) ?? 0)
      .reduce((a, b) => a + b, 0);
    const text = typeof result.result === 'string' ? result.result : '';
    return {
      output: text,
      tokens: { input, output: asNumber(usage.output_tokens) ?? 0 },
      costUsd: asNumber(result.total_cost_usd),
      error: result.is_error === true ? text || String(result.subtype ?? 'error') : undefined,
      raw: result,
      sessionId: typeof result.session_id === 'string' ? result.session_id : undefined,
    };
  }
}
