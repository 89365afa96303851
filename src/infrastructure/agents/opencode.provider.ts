import { readFileSync } from 'node:fs';
import { Injectable } from '@nestjs/common';
import type { NativeToolUse } from '../../domain/ports/agent-provider.port';
import { ProvidesAgent } from '../../domain/ports/markers';
import { opencodeNativeToolUse } from './native-tool-uses';
import { CliAgentProvider, type CliInvocation, type CliRunContext, type ParsedAgentOutput } from './cli-agent.provider';
import { asNumber, asRecord, type JsonEvent, parseNdjson, sessionOf } from './ndjson';

/** OpenCode's default (5 s) is shorter than a cold `awf mcp-serve` start on a loaded machine. */
const MCP_TIMEOUT_MS = 60_000;

/**
 * OpenCode, headless (`opencode run --format json`). The proxy goes in through
 * `OPENCODE_CONFIG` pointing at a per-run file, which OpenCode merges over the user's global
 * and project configs, so no user file is touched (a workspace `opencode.json` included).
 * With intercept_builtins the file's `tools` map switches every tool off but the proxy's.
 */
@Injectable()
@ProvidesAgent()
export class OpencodeAgentProvider extends CliAgentProvider {
  readonly name = 'opencode';
  readonly canInterceptBuiltins = true;
  protected readonly binary = 'opencode';
  protected readonly installHint = 'Install OpenCode (npm install -g opencode-ai), or set options.binary to its path.';

  protected invocation({ request, prompt, options, dir }: CliRunContext): CliInvocation {
    const model = options.string('model');
    const args = ['run', '--format', 'json'];
    if (model) args.push('--model', model);
    if (request.conversation?.sessionId) args.push('--session', request.conversation.sessionId);
    const env: Record<string, string> = {};
    const proxy = request.proxy;
    if (proxy) {
      const base = userConfig(request.env.OPENCODE_CONFIG ?? process.env.OPENCODE_CONFIG);
      const prefix = `${proxy.serverName}_*`;
      const config: JsonEvent = {
        ...base,
        mcp: {
          ...asRecord(base.mcp),
          [proxy.serverName]: {
            type: 'local',
            command: [proxy.command, ...proxy.args],
            environment: proxy.env,
            enabled: true,
            timeout: MCP_TIMEOUT_MS,
          },
        },
        permission: { ...permissionMap(base.permission), [prefix]: 'allow' },
      };
      // Later keys win in OpenCode's wildcard matching: everything off, then ours back on.
      if (proxy.interceptBuiltins) config.tools = { '*': false, [prefix]: true };
      env.OPENCODE_CONFIG = dir.write('opencode.json', JSON.stringify(config, null, 2));
    }
    args.push('--', prompt);
    return { args, env };
  }

  protected override nativeToolUse(event: JsonEvent, serverName: string): NativeToolUse | undefined {
    return opencodeNativeToolUse(event, serverName);
  }

  protected parse(stdout: string): ParsedAgentOutput {
    const events = parseNdjson(stdout);
    const lastTool = events.map((e) => e.type).lastIndexOf('tool_use');
    const output = events
      .slice(lastTool + 1)
      .filter((e) => e.type === 'text')
      .map((e) => asRecord(e.part).text)
      .filter((t): t is string => typeof t === 'string')
      .join('');
    let input = 0;
    let out = 0;
    let cost = 0;
    for (const e of events.filter((ev) => ev.type === 'step_finish')) {
      const part = asRecord(e.part);
      const tokens = asRecord(part.tokens);
      input += asNumber(tokens.input) ?? 0;
      out += asNumber(tokens.output) ?? 0;
      cost += asNumber(part.cost) ?? 0;
    }
    const failure = events.filter((e) => e.type === 'error').pop();
    const error = failure ? asRecord(failure.error) : undefined;
    return {
      output,
      tokens: { input, output: out },
      costUsd: cost,
      error: error ? String(asRecord(error.data).message ?? error.name ?? 'error') : undefined,
      raw: events,
      sessionId: sessionOf(events, undefined, 'sessionID'),
    };
  }
}

/** The config the user already points OPENCODE_CONFIG at stays in effect: ours extends it. */
function userConfig(file: string | undefined): JsonEvent {
  if (!file) return {};
  try {
    return asRecord(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return {};
  }
}

function permissionMap(value: unknown): JsonEvent {
  if (typeof value === 'string') return { '*': value };
  return asRecord(value);
}
