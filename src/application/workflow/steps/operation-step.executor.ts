import { AwfError, isAwfError } from '../../../domain/errors/awf-error';
import { type ErrorCode, ErrorCodes } from '../../../domain/errors/error-codes';
import type { ToolRouterFactory } from '../../../domain/ports/tool-router-factory.port';
import { DEFAULT_LIMITS } from '../../../domain/proxy/proxy-config';
import type { BuiltinOperation, OperationResult } from '../../../domain/workflow/ports/builtin-operation.port';
import type { OperationStep } from '../../../domain/workflow/workflow.model';
import { interpolateDeep, type RunContext } from '../run/run-context';
import type { StepOutcome } from './step-outcome';

/**
 * `type: operation`: a built-in operation (`http.request`) or a plugin's (`<plugin>.<op>`, run
 * through the same tool router as the proxy, so its policy, spans and audit apply). Inputs are
 * templates at any depth. The outputs are `.states.<step>.Response.*`; `Output` is their JSON.
 */
export class OperationStepExecutor {
  constructor(
    private readonly builtins: readonly BuiltinOperation[],
    private readonly tools?: ToolRouterFactory,
  ) {}

  async execute(step: OperationStep, ctx: RunContext): Promise<StepOutcome> {
    const inputs = interpolateDeep(ctx, step.inputs, step.name, 'inputs') as Record<string, unknown>;
    const timeout = step.timeoutMs > 0 ? AbortSignal.timeout(step.timeoutMs) : undefined;
    const signal = timeout ? AbortSignal.any([ctx.signal, timeout]) : ctx.signal;
    const builtin = this.builtins.find((b) => b.name === step.operation);
    const result = builtin ? await builtin.execute(inputs, signal) : await this.plugin(step, inputs, ctx, signal);
    const state = {
      Output: JSON.stringify(result.outputs),
      Stderr: '',
      ExitCode: result.success ? 0 : 1,
      Status: 'success' as const,
      Response: result.outputs,
    };
    if (ctx.signal.aborted)
      return { status: 'cancelled', state: { ...state, Status: 'cancelled', ExitCode: -1 }, attempts: 1, toolCalls: 0 };
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
        attempts: 1,
        toolCalls: 0,
      };
    }
    if (result.success) return { status: 'success', state, attempts: 1, toolCalls: 0 };
    const error = new AwfError(
      (result.code as ErrorCode | undefined) ?? ErrorCodes.EXECUTION_OPERATION_FAILED,
      `step "${step.name}": ${step.operation} failed: ${result.error ?? 'no reason given'}`,
      { step: step.name, operation: step.operation },
    );
    return { status: 'failure', state: { ...state, Status: 'failure' }, error, attempts: 1, toolCalls: 0 };
  }

  private async plugin(
    step: OperationStep,
    inputs: Record<string, unknown>,
    ctx: RunContext,
    signal: AbortSignal,
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
