import { Inject, Injectable, Optional } from '@nestjs/common';
import { buildToolScope } from '../config/tool-scope.resolver';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { resultText } from '../../domain/model/tool-result';
import type {
  AgentProvider,
  AgentRunRequest,
  AgentRunResult,
  ProxyInjection,
} from '../../domain/ports/agent-provider.port';
import { ProvidesAgent } from '../../domain/ports/markers';
import type { ToolRouterFactory } from '../../domain/ports/tool-router-factory.port';
import type { ToolRouter } from '../../domain/ports/tool-router.port';
import { TOOL_ROUTER_FACTORY } from '../../domain/ports/tokens';
import { loadProxyConfig } from '../config/proxy-config.loader';
import type { ProjectConfig } from '../config/project-config.loader';
import { PROJECT_CONFIG } from '../config/project-config.module';
import { AgentOptions } from './agent-options';
import { type ChatMessage, type ChatToolCall, postChatCompletion } from './openai-compatible.client';

export const DEFAULT_MAX_TOOL_ITERATIONS = 25;

/**
 * Any OpenAI-compatible Chat Completions endpoint, over HTTP: no subprocess. With the proxy,
 * the step's tools run in-process (the same ToolRouterService and interceptors as `mcp-serve`, so
 * the same logs and audit events), go into `tools[]`, and awf runs the tool-call loop until
 * the model answers with text, at most `max_tool_iterations` requests.
 */
@Injectable()
@ProvidesAgent()
export class OpenAiCompatibleAgentProvider implements AgentProvider {
  readonly name = 'openai_compatible';
  readonly canInterceptBuiltins = true;
  /** No server-side session: a conversation is continued by sending its turns again (AWF). */
  readonly resumes = 'history' as const;

  constructor(
    @Inject(TOOL_ROUTER_FACTORY) private readonly tools: ToolRouterFactory,
    @Optional() @Inject(PROJECT_CONFIG) private readonly project?: Pick<ProjectConfig, 'agents'>,
  ) {}

  async run(request: AgentRunRequest): Promise<AgentRunResult> {
    const settings = this.settings(request);
    const dispatcher = request.proxy ? await this.dispatcherFor(request.proxy) : undefined;
    const timeout = request.timeoutMs ? AbortSignal.timeout(request.timeoutMs) : undefined;
    const signal = timeout ? AbortSignal.any([request.signal, timeout]) : request.signal;
    try {
      return await this.loop(request, settings, dispatcher?.tools, signal);
    } catch (err) {
      if (timeout?.aborted) {
        throw new AwfError(
          ErrorCodes.EXECUTION_AGENT_TIMEOUT,
          `openai_compatible timed out after ${request.timeoutMs} ms`,
          { provider: this.name, timeoutMs: request.timeoutMs },
        );
      }
      if (request.signal.aborted)
        throw new AwfError(ErrorCodes.AGENT_CANCELLED, 'openai_compatible was cancelled', { provider: this.name });
      throw err;
    } finally {
      if (dispatcher?.owned) await dispatcher.tools.close();
    }
  }

  private async loop(
    request: AgentRunRequest,
    s: ReturnType<OpenAiCompatibleAgentProvider['settings']>,
    dispatcher: ToolRouter | undefined,
    signal: AbortSignal,
  ): Promise<AgentRunResult> {
    const tools = (dispatcher?.list() ?? []).map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.inputSchema },
    }));
    const system = request.conversation?.systemPrompt ?? s.systemPrompt;
    const messages: ChatMessage[] = [
      ...(system ? [{ role: 'system' as const, content: system }] : []),
      ...(request.conversation?.turns ?? []).map((t) => ({ role: t.role, content: t.content })),
      { role: 'user', content: request.prompt },
    ];
    let input = 0;
    let output = 0;
    for (let i = 0; i < s.maxIterations; i++) {
      const response = await postChatCompletion(
        s.url,
        s.apiKey,
        { model: s.model, messages, ...s.params, ...(tools.length ? { tools, tool_choice: 'auto' } : {}) },
        signal,
      );
      input += response.usage?.prompt_tokens ?? 0;
      output += response.usage?.completion_tokens ?? 0;
      const choice = response.choices?.[0];
      if (!choice)
        throw new AwfError(ErrorCodes.AGENT_API_FAILED, 'openai_compatible: API returned no choices', { url: s.url });
      const calls = choice.message?.tool_calls ?? [];
      if (choice.finish_reason !== 'tool_calls' && calls.length === 0) {
        return { output: choice.message?.content ?? '', exitCode: 0, tokens: { input, output }, raw: response };
      }
      if (calls.length === 0) throw loopGuard('the model asked for tool calls but sent none', s.maxIterations);
      messages.push({ role: 'assistant', content: choice.message?.content ?? null, tool_calls: calls });
      // In order: a later call in the same turn may depend on an earlier one (Read, then Edit).
      for (const call of calls)
        messages.push({ role: 'tool', tool_call_id: call.id, content: await dispatch(dispatcher, call, signal) });
    }
    throw loopGuard(`no final answer after ${s.maxIterations} requests`, s.maxIterations);
  }

  private async dispatcherFor(proxy: ProxyInjection): Promise<{ tools: ToolRouter; owned: boolean }> {
    if (proxy.dispatcher) return { tools: proxy.dispatcher, owned: false };
    return { tools: await this.tools.open(buildToolScope(loadProxyConfig(proxy.configPath))), owned: true };
  }

  private settings(request: AgentRunRequest) {
    const o = new AgentOptions(this.name, request.options);
    // The step's option, else the project's default (.awf/config.yaml agents.openai_compatible), else the env.
    const project = this.project?.agents.openai_compatible ?? {};
    const env = (key: string) => request.env[key] ?? process.env[key];
    const baseUrl = o.string('base_url') ?? project.base_url ?? env('OPENAI_BASE_URL');
    const model = o.string('model') ?? project.model ?? env('OPENAI_MODEL');
    if (!baseUrl || !model) {
      throw new AwfError(
        ErrorCodes.AGENT_INVALID_OPTIONS,
        `openai_compatible: ${!baseUrl ? 'base_url' : 'model'} is not set`,
        { provider: this.name, step: request.step },
        'Set options.base_url and options.model on the step, agents.openai_compatible in .awf/config.yaml, ' +
          'or OPENAI_BASE_URL and OPENAI_MODEL in the environment.',
      );
    }
    const maxTokens =
      o.number('max_completion_tokens', { min: 0, integer: true }) ?? o.number('max_tokens', { min: 0, integer: true });
    const params: Record<string, number> = {};
    const temperature = o.number('temperature', { min: 0, max: 2 });
    const topP = o.number('top_p', { min: 0, max: 1 });
    if (temperature !== undefined) params.temperature = temperature;
    if (topP !== undefined) params.top_p = topP;
    if (maxTokens !== undefined) params.max_completion_tokens = maxTokens;
    return {
      url: `${baseUrl.replace(/\/+$/, '')}/chat/completions`,
      model,
      apiKey: o.string('api_key') ?? project.api_key ?? env('OPENAI_API_KEY'),
      systemPrompt: o.string('system_prompt'),
      maxIterations: o.number('max_tool_iterations', { min: 1, integer: true }) ?? DEFAULT_MAX_TOOL_ITERATIONS,
      params,
    };
  }
}

/** What the model reads back for one call: the result text, or `error: …` it can act on. */
export async function dispatch(
  dispatcher: ToolRouter | undefined,
  call: ChatToolCall,
  signal: AbortSignal,
): Promise<string> {
  const name = call.function?.name;
  if (!dispatcher) return 'error: no tools are available in this step';
  let args: unknown;
  try {
    args = call.function.arguments ? JSON.parse(call.function.arguments) : {};
  } catch {
    return `error: invalid tool arguments for ${name}`;
  }
  try {
    const result = await dispatcher.call(name, args, { signal });
    const text = resultText(result);
    return result.isError ? `error: ${text}` : text;
  } catch (err) {
    return `error calling tool ${name}: ${err instanceof Error ? err.message : String(err)}`;
  }
}

function loopGuard(why: string, max: number): AwfError {
  return new AwfError(
    ErrorCodes.MCP_PROXY_INFINITE_LOOP_GUARD,
    `openai_compatible: ${why} (max_tool_iterations ${max})`,
    { max_tool_iterations: max },
    'Raise options.max_tool_iterations if the task needs more tool rounds, or check that the model can finish with a text answer.',
  );
}
