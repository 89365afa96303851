import { Inject, Injectable } from '@nestjs/common';
import type { ToolResult } from '../../domain/model/tool-result';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import { InterceptsToolCalls } from '../../domain/ports/markers';
import type { ToolCall, ToolCallInterceptor } from '../../domain/ports/tool-call-interceptor.port';
import { APP_LOGGER } from '../../domain/ports/tokens';
import { argsShape } from './args-shape';
import { elapsedMs, INTERCEPTOR_ORDER, outcomeOf } from './tool-call-outcome';

/**
 * One pino line `tool call` per call: info when it succeeded, warn when the tool failed.
 * Arguments are logged as their shape; `AWF_LOG_TOOL_ARGS=1` logs the values (still
 * passed through the secret masker, like every line). That variable is the running process's,
 * read when the interceptor is made.
 */
@InterceptsToolCalls()
@Injectable()
export class ToolCallLogInterceptor implements ToolCallInterceptor {
  readonly order = INTERCEPTOR_ORDER.log;
  private readonly logArgs = process.env.AWF_LOG_TOOL_ARGS === '1';

  constructor(@Inject(APP_LOGGER) private readonly logger: AppLogger) {}

  async intercept(call: ToolCall, next: () => Promise<ToolResult>): Promise<ToolResult> {
    const started = performance.now();
    const result = await next();
    this.write(call, result, elapsedMs(started));
    return result;
  }

  private write(call: ToolCall, result: ToolResult, durationMs: number): void {
    const { status, error } = outcomeOf(result, call.args, call.policy?.rule);
    const { scope, callId } = call.ctx;
    // Fixed shape, absent fields undefined (pino leaves them out): no hidden class per call (ADR 182).
    const fields = {
      tool: call.tool.name,
      source: call.tool.source,
      duration_ms: durationMs,
      status,
      error,
      step: scope.step || undefined,
      run_id: scope.runId || undefined,
      call_id: callId,
      policy: call.policy,
      args: this.logArgs ? call.args : undefined,
      args_shape: this.logArgs ? undefined : argsShape(call.args),
    };
    if (status === 'error') this.logger.warn(fields, 'tool call');
    else this.logger.info(fields, 'tool call');
  }
}
