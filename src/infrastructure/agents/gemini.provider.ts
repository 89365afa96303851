import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { ProvidesAgent } from '../../domain/ports/markers';
import { CliAgentProvider, type CliInvocation, type CliRunContext, type ParsedAgentOutput } from './cli-agent.provider';
import { asNumber, asRecord, type JsonEvent, parseNdjson, sessionOf } from './ndjson';

/** Gemini CLI's own tools (0.61), excluded with intercept_builtins so only the proxy's remain. */
export const GEMINI_NATIVE_TOOLS = [
  'activate_skill',
  'ask_user',
  'complete_task',
  'enter_plan_mode',
  'exit_plan_mode',
  'get_internal_docs',
  'glob',
  'google_web_search',
  'grep_search',
  'invoke_agent',
  'list_background_processes',
  'list_directory',
  'read_background_output',
  'read_file',
  'read_many_files',
  'replace',
  'run_shell_command',
  'save_memory',
  'search_file_content',
  'take_snapshot',
  'tracker_add_dependency',
  'tracker_create_task',
  'tracker_get_task',
  'tracker_list_tasks',
  'tracker_update_task',
  'tracker_visualize',
  'update_topic',
  'web_fetch',
  'write_file',
  'write_todos',
];

/**
 * Gemini CLI, headless (`gemini --prompt … --output-format stream-json`). Gemini reads MCP
 * servers only from settings files, so the proxy goes into a per-run Gemini home
 * (`GEMINI_CLI_HOME`): the user's settings.json copied with `mcpServers.awf-proxy` (trusted)
 * added, and every other entry of their `~/.gemini` linked in, so their login still works
 * and their own files are never written. With intercept_builtins, Gemini's own tools are
 * excluded and only the proxy's server is allowed.
 */
@Injectable()
@ProvidesAgent()
export class GeminiAgentProvider extends CliAgentProvider {
  readonly name = 'gemini';
  readonly canInterceptBuiltins = true;
  protected readonly binary = 'gemini';
  protected readonly installHint =
    'Install Gemini CLI (npm install -g @google/gemini-cli), or set options.binary to its path.';

  protected invocation({ request, prompt, options, dir }: CliRunContext): CliInvocation {
    const model = options.string('model');
    const args = ['--output-format', 'stream-json'];
    if (model) args.push('--model', model);
    if (options.boolean('dangerously_skip_permissions')) args.push('--approval-mode', 'yolo');
    if (request.conversation?.sessionId) args.push('--resume', request.conversation.sessionId);
    const env: Record<string, string> = {};
    const proxy = request.proxy;
    if (proxy) {
      const userHome = request.env.GEMINI_CLI_HOME ?? process.env.GEMINI_CLI_HOME ?? request.env.HOME ?? homedir();
      const userDir = join(userHome, '.gemini');
      const settings = readSettings(join(userDir, 'settings.json'));
      settings.mcpServers = {
        ...asRecord(settings.mcpServers),
        [proxy.serverName]: { command: proxy.command, args: proxy.args, env: proxy.env, cwd: request.cwd, trust: true },
      };
      if (proxy.interceptBuiltins) {
        const tools = asRecord(settings.tools);
        const exclude = Array.isArray(tools.exclude) ? (tools.exclude as string[]) : [];
        settings.tools = { ...tools, exclude: [...new Set([...exclude, ...GEMINI_NATIVE_TOOLS])] };
        args.push('--allowed-mcp-server-names', proxy.serverName);
      }
      mkdirSync(join(dir.path, '.gemini'), { mode: 0o700 });
      // Sessions live under .gemini/tmp: it must be the user's own, linked, or a later
      // `--resume` (conversation.continue_from) finds nothing once this private home is gone.
      mkdirSync(join(userDir, 'tmp'), { recursive: true, mode: 0o700 });
      linkEntries(userDir, join(dir.path, '.gemini'));
      dir.write('.gemini/settings.json', JSON.stringify(settings, null, 2));
      env.GEMINI_CLI_HOME = dir.path;
    }
    args.push(`--prompt=${prompt}`);
    return { args, env };
  }

  protected parse(stdout: string): ParsedAgentOutput {
    const events = parseNdjson(stdout);
    const lastTool = Math.max(...['tool_use', 'tool_result'].map((t) => events.map((e) => e.type).lastIndexOf(t)));
    const output = events
      .slice(lastTool + 1)
      .filter((e) => e.type === 'message' && e.role === 'assistant' && typeof e.content === 'string')
      .map((e) => e.content as string)
      .join('');
    const result = events.filter((e) => e.type === 'result').pop();
    const stats = asRecord(result?.stats);
    const failed = result && result.status !== 'success';
    return {
      output,
      tokens: { input: asNumber(stats.input_tokens), output: asNumber(stats.output_tokens) },
      error: failed ? String(asRecord(result.error).message ?? result.status) : undefined,
      raw: events,
      sessionId: sessionOf(events, 'init', 'session_id'),
    };
  }
}

/** Gemini accepts comments in settings.json; a file we cannot read as JSON is treated as empty. */
function readSettings(file: string): JsonEvent {
  if (!existsSync(file)) return {};
  const text = readFileSync(file, 'utf8');
  for (const candidate of [text, text.replace(/^\s*\/\/.*$/gm, '')]) {
    try {
      return asRecord(JSON.parse(candidate));
    } catch {
      // try the next form
    }
  }
  return {};
}

/** Links everything but settings.json, so credentials and history stay where the user keeps them. */
function linkEntries(from: string, to: string): void {
  if (!existsSync(from)) return;
  for (const entry of readdirSync(from)) {
    if (entry !== 'settings.json') symlinkSync(join(from, entry), join(to, entry));
  }
}
