import { isAbsolute, join, resolve } from 'node:path';
import { AwfError, isAwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { withStderrTail } from '../../domain/errors/stderr-tail';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import type { ToolCallEvent } from '../../domain/model/tool-call-event';
import type { RunHistory } from '../../domain/ports/run-history.port';
import type { AgentCatalog } from '../../domain/workflow/ports/agent-catalog.port';
import type { LoopData } from '../../domain/workflow/interpolation.types';
import type { AgentStep } from '../../domain/workflow/workflow.model';
import { NativeToolWatch } from '../policy/native-tool-watch';
import { stepAgentContext } from './agent-context';
import { StepConversation } from './agent-conversation';
import { formatOutput, tokenFields } from './agent-output';
import { externalFilePath, readExternalFile } from './external-files';
import { interpolate, interpolateDeep, type RunContext } from './run-context';
import type { StepOutcome } from './step-outcome';
import { type ProxySession, ToolProxyService } from './tool-proxy.service';

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
    const providerName = interpolate(ctx, step.provider, step.name, 'provider');
    const provider = this.agents.get(providerName);
    if (!provider) {
      const available = this.agents.names().join(', ') || 'none';
      throw new AwfError(
        ErrorCodes.WORKFLOW_UNKNOWN_PROVIDER,
        `states.${step.name}.provider: unknown agent provider "${providerName}" (available: ${available})`,
        { step: step.name, provider: providerName, available: this.agents.names() },
        'Use one of the available providers, or load the extension that adds this one (.awf/config.yaml `extensions:`).',
      );
    }
    const rendered = interpolate(ctx, promptText(step, ctx), step.name, step.promptFile ? 'prompt_file' : 'prompt');
    const context = stepAgentContext(step, ctx);
    const prompt = context.skills ? `${context.skills}\n\n${rendered}` : rendered;
    const options = { ...(interpolateDeep(ctx, step.options, step.name, 'options') as Record<string, unknown>) };
    if (context.systemPrompt !== undefined) {
      // AWF: role + system_prompt is the system prompt, whatever options.system_prompt said.
      if (options.system_prompt !== undefined)
        this.logger.warn({ step: step.name }, "options.system_prompt is replaced by the step's role and system_prompt");
      options.system_prompt = context.systemPrompt;
    }
    const dir = step.dir ? interpolate(ctx, step.dir, step.name, 'dir') : undefined;
    const cwd = dir ? (isAbsolute(dir) ? dir : resolve(ctx.cwd, dir)) : ctx.cwd;
    const eventsPath = stepEventsPath(ctx.runDir, step.name, ctx.loop);
    let session: ProxySession | undefined;
    if (ToolProxyService.wanted(step.mcpProxy)) {
      try {
        session = await this.proxies.start({
          workflow: ctx.workflow.name,
          step: step.name,
          runId: ctx.runId,
          rootDir: cwd,
          settings: step.mcpProxy,
          eventsPath,
          traceparent: ctx.stepSpan?.traceparent,
        });
      } catch (err) {
        // A refused proxy is the step's failure (AWF routes it through on_failure); no agent starts.
        if (!isAwfError(err)) throw err;
        return {
          status: 'failure',
          state: { Output: '', Stderr: '', ExitCode: 1, Status: 'failure' },
          error: err,
          attempts: 1,
          toolCalls: 0,
        };
      }
      if (!provider.canInterceptBuiltins && step.mcpProxy.interceptBuiltins) {
        this.logger.warn(
          { step: step.name, provider: provider.name, code: ErrorCodes.MCP_PROXY_UNSUPPORTED_PROVIDER },
          'provider cannot switch its own tools off; the proxy runs alongside them (coexistence mode)',
        );
      }
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
        context.systemPrompt,
      );
      const turn = (text: string) =>
        provider.run({
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
      let result = await turn(prompt);
      conversation.answered(prompt, result);
      let tokens = tokenFields(result.tokens, prompt, result.output);
      // mode: conversation — the user's next turns (stdin lines) until an empty one or the end of input.
      for (
        let next = step.mode === 'conversation' ? await ctx.userInput?.(step.name) : undefined;
        next?.trim();
        next = await ctx.userInput?.(step.name)
      ) {
        result = await turn(next);
        conversation.answered(next, result);
        const more = tokenFields(result.tokens, next, result.output);
        tokens = {
          TokensInput: tokens.TokensInput! + more.TokensInput!,
          TokensOutput: tokens.TokensOutput! + more.TokensOutput!,
          TokensUsed: tokens.TokensUsed! + more.TokensUsed!,
          TokensEstimated: tokens.TokensEstimated || more.TokensEstimated,
        };
      }
      conversations[step.name] = conversation.record(providerName);
      const formatted = formatOutput(step, result.output);
      const state = {
        ...base,
        ...formatted,
        ...tokens,
        ExitCode: result.exitCode,
        Status: 'success' as const,
        Response: parseJson(formatted.Output),
      };
      const proxyError = session?.startFailure();
      if (proxyError) throw proxyError; // the catch below reads the events, once
      const events = this.events(session, eventsPath, watch, ctx, step.name);
      const bypass = watch?.failure(step.name);
      if (bypass)
        return {
          status: 'failure',
          state: { ...state, Status: 'failure' },
          error: bypass,
          attempts: 1,
          events,
          toolCalls: events!.length,
        };
      return { status: 'success', state, attempts: 1, toolCalls: events?.length ?? 0, events };
    } catch (err) {
      const events = this.events(session, eventsPath, watch, ctx, step.name);
      const toolCalls = events?.length ?? 0;
      if (ctx.signal.aborted)
        return {
          status: 'cancelled',
          state: { ...base, ExitCode: -1, Status: 'cancelled' },
          attempts: 1,
          toolCalls,
          events,
        };
      const error =
        session?.startFailure() ??
        watch?.failure(step.name) ??
        (timeout?.aborted
          ? stepTimedOut(step, err)
          : isAwfError(err)
            ? err
            : new AwfError(
                ErrorCodes.EXECUTION_AGENT_FAILED,
                `step "${step.name}": ${err instanceof Error ? err.message : String(err)}`,
                { step: step.name },
              ));
      const output = typeof error.details.output === 'string' ? error.details.output : '';
      const exitCode =
        typeof error.details.exit_code === 'number' ? error.details.exit_code : timeout?.aborted ? -1 : 1;
      return {
        status: 'failure',
        state: { ...base, Output: output, ExitCode: exitCode, Status: 'failure' },
        error,
        attempts: 1,
        toolCalls,
        events,
      };
    } finally {
      unwatch?.();
      session?.close();
    }
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
 * The step's own deadline wins over whatever the provider reported as it was stopped, but the
 * provider's last stderr lines are kept: they usually say what the agent was stuck on.
 */
function stepTimedOut(step: AgentStep, cause: unknown): AwfError {
  const stderr = isAwfError(cause) && Array.isArray(cause.details.stderr) ? (cause.details.stderr as string[]) : [];
  return new AwfError(
    ErrorCodes.EXECUTION_AGENT_TIMEOUT,
    withStderrTail(`step "${step.name}" timed out after ${step.timeoutMs} ms`, stderr),
    { step: step.name, timeout_ms: step.timeoutMs, ...(stderr.length ? { stderr } : {}) },
    'Raise the step timeout, or make the prompt ask for less.',
  );
}

function parseJson(text: string): unknown {
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return undefined;
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
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

/** The prompt's template: `prompt`, or the text of `prompt_file` (its path a template too, AWF's lookup). */
function promptText(step: AgentStep, ctx: RunContext): string {
  if (step.promptFile === undefined) return step.prompt;
  const rendered = interpolate(ctx, step.promptFile, step.name, 'prompt_file');
  const path = ctx.files
    ? externalFilePath(rendered, ctx.workflow.sourceDir ?? ctx.cwd, ctx.awf, ctx.files, ctx.env)
    : rendered;
  return readExternalFile(ctx.files, path, `states.${step.name}.prompt_file`);
}
