import { AwfError, isAwfError } from '../../../domain/errors/awf-error';
import { type ErrorCode, ErrorCodes } from '../../../domain/errors/error-codes';
import type { RunHistory } from '../../../domain/ports/run-history.port';
import type { ToolRouterFactory } from '../../../domain/ports/tool-router-factory.port';
import { DEFAULT_LIMITS } from '../../../domain/proxy/proxy-config';
import type { BuiltinOperation, OperationResult } from '../../../domain/workflow/ports/builtin-operation.port';
import type { OperationStep } from '../../../domain/workflow/workflow.model';
import { interpolateDeep, type RunContext } from '../run/run-context';
import { stepEventsPath } from './agent-step.executor';
import type { StepOutcome } from './step-outcome';

/**
 * `type: operation`: a built-in operation (`http.request`) or a plugin's (`<plugin>.<op>`, run
 * through the same tool router as the proxy, so it is recorded as a tool call is: its span, log
 * line and audit event, read back into the step's summary and `awf runs show`). Inputs are
 * templates at any depth. The outputs are `.states.<step>.Response.*`; `Output` is their JSON.
 */
export class OperationStepExecutor {
  constructor(
    private readonly builtins: readonly BuiltinOperation[],
    private readonly tools?: ToolRouterFactory,
    private readonly history?: RunHistory,
  ) {}

  async execute(step: OperationStep, ctx: RunContext): Promise<StepOutcome> {
    const inputs = interpolateDeep(ctx, step.inputs, step.name, 'inputs') as Record<string, unknown>;
    const timeout = step.timeoutMs > 0 ? AbortSignal.timeout(step.timeoutMs) : undefined;
    const signal = timeout ? AbortSignal.any([ctx.signal, timeout]) : ctx.signal;
    const builtin = this.builtins.find((b) => b.name === step.operation);
    const eventsPath = builtin ? undefined : stepEventsPath(ctx.runDir, step.name, ctx.loop);
    if (eventsPath) this.history?.startEvents(eventsPath);
    const result = builtin
      ? await builtin.execute(inputs, signal)
      : await this.plugin(step, inputs, ctx, signal, eventsPath!);
    const events = eventsPath && this.history ? this.history.readEvents(eventsPath) : undefined;
    const recorded = { attempts: 1, tool_calls: events?.length ?? 0, ...(events ? { events } : {}) };
    const state = {
      Output: JSON.stringify(result.outputs),
      Stderr: '',
      ExitCode: result.success ? 0 : 1,
      Status: 'success' as const,
      Response: result.outputs,
    };
    if (ctx.signal.aborted)
      return { status: 'cancelled', state: { ...state, Status: 'cancelled', ExitCode: -1 }, ...recorded };
    if (timeout?.aborted) {
      const error = new AwfError(
        ErrorCodes.EXECUTION_STEP_TIMEOUT,
        `step "${step.name}" timed out after ${step.timeoutMs} ms`,
        { step: step.name, timeout_ms: step.timeoutMs },
      );
      return {
        status: 'failure',
        state: { ...state, Status: 'failure', ExitCode: -1 },
        error,
        ...recorded,
      };
    }
    if (result.success) return { status: 'success', state, ...recorded };
    const error = new AwfError(
      (result.code as ErrorCode | undefined) ?? ErrorCodes.EXECUTION_OPERATION_FAILED,
      `step "${step.name}": ${step.operation} failed: ${result.error ?? 'no reason given'}`,
      { step: step.name, operation: step.operation },
    );
    return { status: 'failure', state: { ...state, Status: 'failure' }, error, ...recorded };
  }

  private async plugin(
    step: OperationStep,
    inputs: Record<string, unknown>,
    ctx: RunContext,
    signal: AbortSignal,
    eventsPath: string,
  ): Promise<OperationResult> {
    const dot = step.operation.indexOf('.');
    if (dot < 1) throw operationNotFound(step, ': an operation is <plugin>.<operation>');
    const plugin = step.operation.slice(0, dot);
    const operation = step.operation.slice(dot + 1);
    if (!this.tools)
      throw new AwfError(
        ErrorCodes.WORKFLOW_UNKNOWN_OPERATION,
        `states.${step.name}.operation: no plugins are loaded, so "${step.operation}" cannot run`,
      );
    const router = await this.tools.open({
      rootDir: ctx.cwd,
      interceptBuiltins: false,
      pluginTools: [{ plugin, expose: [operation] }],
      limits: DEFAULT_LIMITS,
      workflow: ctx.workflow.name,
      step: step.name,
      runId: ctx.runId,
      eventsPath,
      traceparent: ctx.stepSpan?.traceparent,
    });
    try {
      const res = await router.call(`${plugin}_${operation}`, inputs, { signal }).catch((err: unknown) => {
        throw isAwfError(err) && err.code === ErrorCodes.TOOL_UNKNOWN ? operationNotFound(step) : err;
      });
      const texts = res.content.map((c) => String(c.text));
      const outputs = res.structuredContent ?? parseObject(texts[0]) ?? {};
      return res.isError ? { success: false, outputs, error: texts.at(-1) } : { success: true, outputs };
    } finally {
      await router.close();
    }
  }
}

/** AWF's run fails the same way (`operation "x" not found`, exit 1), past on_failure. */
function operationNotFound(step: OperationStep, why = ''): AwfError {
  return new AwfError(
    ErrorCodes.PLUGIN_NOT_FOUND,
    `states.${step.name}.operation: operation "${step.operation}" not found${why}`,
    { step: step.name, operation: step.operation },
    '`awf plugin list` shows the installed plugins and their operations.',
  );
}

function parseObject(text: string | undefined): Record<string, unknown> | undefined {
  try {
    const v: unknown = text === undefined ? undefined : JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
