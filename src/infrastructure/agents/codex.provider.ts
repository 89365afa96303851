import { Injectable } from '@nestjs/common';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ProvidesAgent } from '../../domain/ports/markers';
import {
  CliAgentProvider,
  type CliInvocation,
  type CliRunContext,
  type ParsedAgentOutput,
  type ToolUseReader,
  type ToolUseReaderContext,
} from './cli-agent.provider';
import { CodexSessionRecordWatch } from './codex-session-record.watch';
import { asNumber, asRecord, parseNdjson, sessionOf } from './ndjson';

/**
 * Codex features (0.171) that give the model its own shell, file, web and sub-agent tools.
 * Disabled with intercept_builtins; what remains (MCP resource helpers, request_user_input)
 * cannot be switched off, so Codex still counts as coexistence.
 */
export const CODEX_NATIVE_FEATURES = [
  'shell_tool',
  'unified_exec',
  'view_image',
  'image_generation',
  'multi_agent',
  'goals',
  'tool_suggest',
  'sleep_tool',
];

/**
 * Codex CLI, headless (`codex exec --json`). The proxy goes in as per-run
 * `-c mcp_servers.awf-proxy.*` overrides: nothing is written to `$CODEX_HOME`. Codex does not
 * forward its environment to MCP servers, so the proxy's variables are set on Codex and
 * named in `env_vars` (values never appear on the command line). `required` makes Codex
 * wait for the server before the first model request. With intercept_builtins its shell,
 * web and sub-agent tools are disabled, but not all of its tools: it runs in coexistence mode.
 */
@Injectable()
@ProvidesAgent()
export class CodexAgentProvider extends CliAgentProvider {
  readonly name = 'codex';
  readonly canInterceptBuiltins = false;
  protected readonly binary = 'codex';
  protected readonly installHint =
    'Install the Codex CLI (npm install -g @openai/codex), or set options.binary to its path.';

  protected invocation({ request, prompt, options }: CliRunContext): CliInvocation {
    const model = options.string('model');
    // `codex exec resume <id> <prompt>` continues a session with the same flags.
    const session = request.conversation?.sessionId;
    const args = ['exec', ...(session ? ['resume'] : []), '--json', '--skip-git-repo-check'];
    if (model) args.push('--model', model);
    if (options.boolean('dangerously_skip_permissions')) args.push('--dangerously-bypass-approvals-and-sandbox');
    const env: Record<string, string> = {};
    const proxy = request.proxy;
    if (proxy) {
      const key = `mcp_servers.${proxy.serverName}`;
      const toolTimeoutSec = Math.ceil((request.timeoutMs || 3_600_000) / 1000);
      args.push(
        '-c',
        `${key}.command=${toml(proxy.command)}`,
        '-c',
        `${key}.args=${toml(proxy.args)}`,
        '-c',
        `${key}.env_vars=${toml(Object.keys(proxy.env))}`,
        '-c',
        `${key}.required=true`,
        '-c',
        `${key}.startup_timeout_sec=120`,
        '-c',
        `${key}.tool_timeout_sec=${toolTimeoutSec}`,
        // Our tools are sandboxed and audited: asking a human would block headless runs.
        '-c',
        `${key}.default_tools_approval_mode="approve"`,
      );
      Object.assign(env, proxy.env);
      if (proxy.interceptBuiltins) {
        args.push(...CODEX_NATIVE_FEATURES.flatMap((f) => ['--disable', f]), '-c', 'web_search="disabled"');
      }
    }
    args.push('--', ...(session ? [session] : []), prompt);
    return { args, env };
  }

  /** Codex's session record, not only its stream: the stream misses commands its sandbox refused (ADR 172). */
  protected override toolUseReader({ request, env, serverName, report, since }: ToolUseReaderContext): ToolUseReader {
    return new CodexSessionRecordWatch({
      codexHome: env.CODEX_HOME || join(env.HOME || homedir(), '.codex'),
      serverName,
      threadId: request.conversation?.sessionId,
      since,
      report,
    });
  }

  protected parse(stdout: string): ParsedAgentOutput {
    const events = parseNdjson(stdout);
    const messages = events
      .filter((e) => e.type === 'item.completed')
      .map((e) => asRecord(e.item))
      .filter((item) => item.type === 'agent_message' || item.type === 'assistant_message');
    let input = 0;
    let output = 0;
    for (const e of events.filter((ev) => ev.type === 'turn.completed')) {
      const usage = asRecord(e.usage);
      input += asNumber(usage.input_tokens) ?? 0;
      output += asNumber(usage.output_tokens) ?? 0;
    }
    const failure = events.filter((e) => e.type === 'turn.failed' || e.type === 'error').pop();
    const last = messages.pop();
    return {
      output: typeof last?.text === 'string' ? last.text : '',
      tokens: { input, output },
      error: failure ? String(asRecord(failure.error).message ?? failure.message ?? 'turn failed') : undefined,
      raw: events,
      sessionId: sessionOf(events, 'thread.started', 'thread_id'),
    };
  }
}

/** TOML for a `-c` value: JSON strings and arrays of strings are valid TOML. */
function toml(value: string | string[]): string {
  return JSON.stringify(value);
}
