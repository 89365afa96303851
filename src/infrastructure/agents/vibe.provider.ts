import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, normalize } from 'node:path';
import { Injectable } from '@nestjs/common';
import type { AgentRunRequest, ConversationTurn } from '../../domain/ports/agent-provider.port';
import { ProvidesAgent } from '../../domain/ports/markers';
import { AgentOptions } from './agent-options';
import { CliAgentProvider, type CliInvocation, type CliRunContext, type ParsedAgentOutput } from './cli-agent.provider';
import { vibeConfigWithProxy } from './vibe-config';
import { lastAssistantText } from './vibe-output';

const OUTPUTS = ['text', 'json', 'streaming'] as const;

/**
 * Mistral Vibe, headless (`vibe --prompt … --agent <profile>`), as AWF drives it. Vibe reads MCP
 * servers only from `$VIBE_HOME/config.toml`, so the proxy goes into a per-run VIBE_HOME: a
 * copy of the user's config without their `mcp_servers` (and their `.env`, for the API key),
 * plus ours. With intercept_builtins, `--enabled-tools awf-proxy_*` leaves only the proxy's
 * tools. Vibe keeps no session a later run can resume: a later turn sends the transcript.
 */
@Injectable()
@ProvidesAgent()
export class VibeAgentProvider extends CliAgentProvider {
  readonly name = 'mistral_vibe';
  readonly canInterceptBuiltins = true;
  override readonly resumes = 'history' as const;
  /** Not a flag: the system prompt goes into the transcript prompt built here, not the base class's. */
  protected override readonly systemPromptFlag = true;
  protected readonly binary = 'vibe';
  protected readonly installHint =
    'Install Mistral Vibe (uv tool install mistral-vibe), or set options.binary to its path.';

  validateOptions(options: Readonly<Record<string, unknown>>): void {
    vibeFlags(new AgentOptions(this.name, options));
  }

  protected invocation({ request, prompt, options, dir }: CliRunContext): CliInvocation {
    const args = ['--prompt', transcriptPrompt(request, prompt), ...vibeFlags(options)];
    const env: Record<string, string> = {};
    const proxy = request.proxy;
    if (proxy) {
      const userHome = request.env.VIBE_HOME ?? process.env.VIBE_HOME ?? join(request.env.HOME ?? homedir(), '.vibe');
      const userFile = join(userHome, 'config.toml');
      const user = existsSync(userFile) ? readFileSync(userFile, 'utf8') : '';
      const server = { name: proxy.serverName, command: proxy.command, args: proxy.args, env: proxy.env };
      dir.write('config.toml', vibeConfigWithProxy(user, server));
      const dotenv = join(userHome, '.env');
      if (existsSync(dotenv)) dir.write('.env', readFileSync(dotenv, 'utf8'));
      env.VIBE_HOME = dir.path;
      if (proxy.interceptBuiltins) args.push('--enabled-tools', `${proxy.serverName}_*`);
    }
    return { args, env };
  }

  protected parse(stdout: string): ParsedAgentOutput {
    return { output: (lastAssistantText(stdout) ?? stdout).trim() };
  }
}

/**
 * The first turn: the step's system prompt in front of its prompt. A later turn: the whole
 * conversation as a transcript, the new prompt last (AWF's wording).
 */
function transcriptPrompt(request: AgentRunRequest, prompt: string): string {
  const system = request.conversation?.systemPrompt;
  const turns: ConversationTurn[] = request.conversation?.turns ?? [];
  if (turns.length === 0) return system ? `${system}\n\n${prompt}` : prompt;
  const lines = [
    'Continue the conversation using the transcript below. Answer the final user message.',
    '',
    'Transcript:',
    ...(system ? [`System: ${system.trim()}`] : []),
    ...turns
      .filter((t) => t.content.trim() !== '')
      .map((t) => `${t.role === 'user' ? 'User' : 'Assistant'}: ${t.content.trim()}`),
    `User: ${prompt}`,
  ];
  return lines.join('\n');
}

/** The flags of a step's options, each checked as `awf validate` does (AWF's rules). */
function vibeFlags(options: AgentOptions): string[] {
  const skip = options.boolean('dangerously_skip_permissions');
  const profile = options.string('agent_profile');
  if (skip && profile && profile !== 'auto-approve')
    throw options.invalid('agent_profile', `"auto-approve" with dangerously_skip_permissions (got "${profile}")`);
  const flags = ['--agent', skip ? 'auto-approve' : (profile ?? 'default')];
  const output = options.choice('output_format', OUTPUTS);
  if (output) flags.push('--output', output);
  const maxTurns = options.number('max_turns', { integer: true, min: 1 });
  if (maxTurns !== undefined) flags.push('--max-turns', String(maxTurns));
  const maxTokens = options.number('max_tokens', { integer: true, min: 1 });
  if (maxTokens !== undefined) flags.push('--max-tokens', String(maxTokens));
  const maxPrice = options.number('max_price', { min: 0 });
  if (maxPrice !== undefined) flags.push('--max-price', String(maxPrice));
  const workdir = options.string('workdir');
  if (workdir !== undefined) flags.push('--workdir', safePath(options, 'workdir', workdir));
  for (const tool of options.list('enabled_tools')) flags.push('--enabled-tools', tool);
  for (const path of options.list('add_dirs')) flags.push('--add-dir', safePath(options, 'add_dirs', path));
  if (options.boolean('trust')) flags.push('--trust');
  return flags;
}

/** A path without `..` segments (AWF refuses them), normalised. */
function safePath(options: AgentOptions, key: string, path: string): string {
  if (path.split(/[\\/]/).includes('..') || normalize(path).split(/[\\/]/).includes('..'))
    throw options.invalid(key, `a path without ".." segments (got "${path}")`);
  return normalize(path);
}
