import { Injectable } from '@nestjs/common';
import { ProvidesAgent } from '../../domain/ports/markers';
import { AgentOptions } from './agent-options';
import {
  CliAgentProvider,
  type CliInvocation,
  type CliRunContext,
  type ParsedAgentOutput,
  type ToolUseReader,
  type ToolUseReaderContext,
} from './cli-agent.provider';
import { copilotNativeToolUses } from './native-tool-uses';
import { asNumber, asRecord, parseNdjson, sessionOf } from './ndjson';

const MODES = ['interactive', 'plan', 'autopilot'] as const;
const EFFORTS = ['low', 'medium', 'high'] as const;

/**
 * GitHub Copilot CLI, headless (`copilot -p … --output-format=json --silent`), as AWF drives it.
 * The proxy goes in through a per-run `--additional-mcp-config @file`, which Copilot adds to
 * the user's own servers without writing them; `--allow-tool=<server>` lets `-p` mode call the
 * proxy's tools without asking (the proxy's policy is the gate). Copilot keeps its own tools
 * (coexistence): with intercept_builtins its bundled MCP servers are switched off and the
 * prompt asks for the proxy's tools only; each tool it runs itself is reported as a bypass.
 */
@Injectable()
@ProvidesAgent()
export class CopilotAgentProvider extends CliAgentProvider {
  readonly name = 'github_copilot';
  readonly canInterceptBuiltins = false;
  protected readonly binary = 'copilot';
  protected readonly installHint =
    'Install GitHub Copilot CLI (npm install -g @github/copilot), or set options.binary to its path.';

  validateOptions(options: Readonly<Record<string, unknown>>): void {
    copilotFlags(new AgentOptions(this.name, options));
  }

  protected invocation({ request, prompt, options, dir }: CliRunContext): CliInvocation {
    const args: string[] = [];
    const sessionId = request.conversation?.sessionId;
    if (sessionId) args.push(`--resume=${sessionId}`);
    args.push('-p', prompt, '--output-format=json', '--silent', ...copilotFlags(options));
    const proxy = request.proxy;
    if (proxy) {
      const config = {
        mcpServers: {
          [proxy.serverName]: { type: 'local', command: proxy.command, args: proxy.args, env: proxy.env, tools: ['*'] },
        },
      };
      args.push('--additional-mcp-config', `@${dir.write('mcp-config.json', JSON.stringify(config))}`);
      args.push(`--allow-tool=${proxy.serverName}`);
      if (proxy.interceptBuiltins) args.push('--disable-builtin-mcps');
    }
    return { args };
  }

  /** Copilot's own tools, as its JSON stream reports them: recorded as bypasses of the proxy. */
  protected override toolUseReader(ctx: ToolUseReaderContext): ToolUseReader {
    const read = copilotNativeToolUses(ctx.serverName);
    return {
      line: (event) => {
        const use = read(event);
        if (use) ctx.report(use);
      },
      finish: () => undefined,
    };
  }

  protected parse(stdout: string): ParsedAgentOutput {
    const events = parseNdjson(stdout);
    const messages = events.filter((e) => e.type === 'assistant.message').map((e) => asRecord(e.data));
    const texts = messages.map((d) => d.content).filter((c): c is string => typeof c === 'string' && c !== '');
    const output = messages.reduce((sum, d) => sum + (asNumber(d.outputTokens) ?? 0), 0);
    const result = events.filter((e) => e.type === 'result').pop();
    const exitCode = asNumber(result?.exitCode);
    return {
      // No assistant message: the raw output stands (AWF), which the base class falls back to.
      output: texts.at(-1) ?? '',
      tokens: output ? { output } : undefined,
      error: exitCode ? `exit code ${exitCode}` : undefined,
      raw: events,
      sessionId: sessionOf(events, 'result', 'sessionId'),
    };
  }
}

/** The flags of a step's options; a bad mode or effort is refused at `awf validate`. */
function copilotFlags(options: AgentOptions): string[] {
  const flags: string[] = [];
  const model = options.string('model');
  const mode = options.choice('mode', MODES);
  const effort = options.choice('effort', EFFORTS);
  if (model) flags.push(`--model=${model}`);
  if (mode) flags.push(`--mode=${mode}`);
  if (effort) flags.push(`--effort=${effort}`);
  for (const tool of options.list('allowed_tools')) flags.push(`--allow-tool=${tool}`);
  for (const tool of options.list('denied_tools')) flags.push(`--deny-tool=${tool}`);
  const allowAll = options.boolean('allow_all');
  if (options.boolean('dangerously_skip_permissions') || allowAll) flags.push('--allow-all');
  return flags;
}
