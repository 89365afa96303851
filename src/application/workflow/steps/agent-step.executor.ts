import { join } from 'node:path';
import { isAwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { AppLogger } from '../../../domain/ports/app-logger.port';
import type { ToolCallEvent } from '../../../domain/model/tool-call-event';
import type { RunHistory } from '../../../domain/ports/run-history.port';
import type { AgentCatalog } from '../../../domain/workflow/ports/agent-catalog.port';
import type { LoopData } from '../../../domain/workflow/interpolation.types';
import type { AgentStep } from '../../../domain/workflow/workflow.model';
import { NativeToolWatch } from '../../policy/native-tool-watch';
import { StepConversation } from './agent-conversation';
import { addTokens, formatOutput, parsedResponse, tokenFields } from './agent-output';
import { agentStepError, failedAgentState } from './agent-step-failure';
import { type AgentStepInput, agentStepInput } from './agent-step-input';
import type { RunContext } from '../run/run-context';
import { failedOutcome, type StepOutcome } from './step-outcome';
import type { ProxySession } from './proxy-session';
import { ToolProxyService } from './tool-proxy.service';

/**
 * A `type: agent`: resolve the provider, start the step's proxy when `mcp_proxy` asks for
 * one, run the agent, and close the proxy whatever happened. Transitions are not evaluated
 * on failure (AWF); the routing is the runner's.
 */
export class AgentStepExecutor {
  constructor(
    private readonly agents: AgentCatalog,
    private readonly proxies: ToolProxyService,
    private readonly logger: AppLogger,
    private readonly history?: RunHistory,
  ) {}

  async execute(step: AgentStep, ctx: RunContext): Promise<StepOutcome> {
    const input = agentStepInput(step, ctx, this.agents, this.logger);
    const { provider, providerName, prompt, options, systemPrompt, cwd } = input;
    const eventsPath = stepEventsPath(ctx.runDir, step.name, ctx.loop);
    // This attempt's calls only: a killed run's attempt (resumed now) or an earlier visit left theirs.
    this.history?.startEvents(eventsPath);
    let session: ProxySession | undefined;
    try {
      session = await this.startProxy(step, ctx, input, eventsPath);
    } catch (err) {
      // A refused proxy is the step's failure (AWF routes it through on_failure); no agent starts.
      if (!isAwfError(err)) throw err;
      return failedOutcome(err, { state: { Output: '', Stderr: '', ExitCode: 1, Status: 'failure' } });
    }
    const timeout = step.timeoutMs > 0 ? AbortSignal.timeout(step.timeoutMs) : undefined;
    // The step's mcp-serve could not open its tools (an upstream server would not start): the
    // agent is stopped at once and the step fails with that error (ADR 181).
    const proxyFailed = new AbortController();
    const unwatch = session?.onStartFailure(() => proxyFailed.abort());
    // The agent's own tools, read from its event stream: recorded as bypassed; a strict policy stops it.
    const watch = session ? new NativeToolWatch(provider.name, session.strictRule) : undefined;
    const signal = AbortSignal.any([
      ctx.signal,
      proxyFailed.signal,
      ...(timeout ? [timeout] : []),
      ...(watch ? [watch.signal] : []),
    ]);
    const base = { Output: '', Stderr: '', ExitCode: 0 };
    try {
      const conversations = (ctx.conversations ??= {});
      const conversation = new StepConversation(
        step,
        provider,
        providerName,
        step.continueFrom ? conversations[step.continueFrom] : undefined,
        systemPrompt,
      );
      const turn = (text: string, first = false) => {
        ctx.observer?.agentMessage?.(step.name, { role: 'user', text, ...(first ? { systemPrompt } : {}) }, ctx.loop);
        return provider.run({
          workflow: ctx.workflow.name,
          step: step.name,
          runId: ctx.runId,
          prompt: text,
          options,
          cwd,
          timeoutMs: step.timeoutMs || undefined,
          signal,
          env: { ...ctx.env },
          proxy: session?.injection,
          conversation: conversation.request(),
          ...(watch ? { onNativeToolUse: watch.report } : {}),
        });
      };
      const conversing = step.mode === 'conversation';
      const reply = (text: string) =>
        ctx.observer?.agentMessage?.(
          step.name,
          { role: 'assistant', text, ...(conversing ? { conversation: true } : {}) },
          ctx.loop,
        );
      let result = await turn(prompt, true);
      conversation.answered(prompt, result);
      reply(result.output);
      let tokens = tokenFields(result.tokens, prompt, result.output);
      // mode: conversation — the user's next turns (stdin lines) until an empty one or the end of input.
      for (
        let next = conversing ? await ctx.userInput?.(step.name) : undefined;
        next?.trim();
        next = await ctx.userInput?.(step.name)
      ) {
        result = await turn(next);
        conversation.answered(next, result);
        reply(result.output);
        tokens = addTokens(tokens, tokenFields(result.tokens, next, result.output));
      }
      conversations[step.name] = conversation.record(providerName);
      const formatted = formatOutput(step, result.output);
      const state = {
        ...base,
        ...formatted,
        ...tokens,
        ExitCode: result.exitCode,
        Status: 'success' as const,
        Response: parsedResponse(formatted.Output),
      };
      const proxyError = session?.startFailure();
      if (proxyError) throw proxyError; // the catch below reads the events, once
      const events = this.events(session, eventsPath, watch, ctx, step.name);
      const bypass = watch?.failure(step.name);
      if (bypass)
        return failedOutcome(bypass, { state: { ...state, Status: 'failure' }, events, tool_calls: events!.length });
      return { status: 'success', state, attempts: 1, tool_calls: events?.length ?? 0, events };
    } catch (err) {
      const events = this.events(session, eventsPath, watch, ctx, step.name);
      const tool_calls = events?.length ?? 0;
      if (ctx.signal.aborted)
        return {
          status: 'cancelled',
          state: { ...base, ExitCode: -1, Status: 'cancelled' },
          attempts: 1,
          tool_calls,
          events,
        };
      const timedOut = timeout?.aborted ?? false;
      const error = agentStepError(step, err, {
        proxyFailure: session?.startFailure(),
        bypass: watch?.failure(step.name),
        timedOut,
      });
      const state = { ...base, ...failedAgentState(error, timedOut), Status: 'failure' as const };
      return failedOutcome(error, { state, tool_calls, events });
    } finally {
      unwatch?.();
      session?.close();
    }
  }

  /** The step's `mcp-serve`, when `mcp_proxy` asks for one; a refusal is thrown as the AwfError it is. */
  private async startProxy(
    step: AgentStep,
    ctx: RunContext,
    { provider, cwd }: AgentStepInput,
    eventsPath: string,
  ): Promise<ProxySession | undefined> {
    if (!ToolProxyService.wanted(step.mcpProxy)) return undefined;
    const session = await this.proxies.start({
      workflow: ctx.workflow.name,
      step: step.name,
      runId: ctx.runId,
      rootDir: cwd,
      settings: step.mcpProxy,
      eventsPath,
      traceparent: ctx.stepSpan?.traceparent,
    });
    if (!provider.canInterceptBuiltins && step.mcpProxy.interceptBuiltins) {
      this.logger.warn(
        { step: step.name, provider: provider.name, code: ErrorCodes.MCP_PROXY_UNSUPPORTED_PROVIDER },
        'provider cannot switch its own tools off; the proxy runs alongside them (coexistence mode)',
      );
    }
    return session;
  }

  /**
   * The step's audit trail, read once (the span, the summary and the history use this copy),
   * after the agent's own tool uses are added to it: the agent and its `mcp-serve` are gone.
   */
  private events(
    session: ProxySession | undefined,
    eventsPath: string,
    watch: NativeToolWatch | undefined,
    ctx: RunContext,
    step: string,
  ): readonly ToolCallEvent[] | undefined {
    if (!session) return undefined;
    if (watch?.count) {
      const bypassed = watch.events(ctx.runId, step);
      for (const e of bypassed)
        this.logger.warn(
          { step, provider: watch.provider, tool: e.tool, source: e.source, status: e.status, policy: e.policy },
          `${watch.provider} used its own tool ${e.tool}, around the proxy and the step's policy (bypassed)`,
        );
      this.history?.appendEvents(eventsPath, bypassed);
    }
    return this.history?.readEvents(eventsPath) ?? [];
  }
}

/**
 * The step's audit trail in the run's directory, where `mcp-serve` appends and `run` reads.
 * In a loop body each iteration has its own (`review.i2.events.jsonl`; nested: `i1-3`).
 */
export function stepEventsPath(runDir: string, step: string, loop?: LoopData): string {
  const indices: number[] = [];
  for (let l: LoopData | null | undefined = loop; l; l = l.Parent) indices.unshift(l.Index);
  const iteration = indices.length ? `.i${indices.join('-')}` : '';
  return join(runDir, `${step.replace(/[^A-Za-z0-9_-]/g, '_')}${iteration}.events.jsonl`);
}
