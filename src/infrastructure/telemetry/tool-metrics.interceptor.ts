import { Inject, Injectable } from '@nestjs/common';
import type { ToolResult } from '../../domain/model/tool-result';
import { InterceptsToolCalls } from '../../domain/ports/markers';
import { METRICS_RECORDER, type MetricsRecorder } from '../../domain/ports/metrics.port';
import type { ToolCall, ToolCallInterceptor } from '../../domain/ports/tool-call-interceptor.port';
import { INTERCEPTOR_ORDER } from './tool-call-outcome';

/**
 * Counts every call (mcp.tool.calls, mcp.tool.errors, awf.policy.decisions) and its duration
 * (mcp.tool.duration), by tool, source and outcome, on the `mcp-serve` path and the
 * in-process path alike. A call the policy refuses is counted too (it arrives as `call.refused`).
 */
@InterceptsToolCalls()
@Injectable()
export class ToolMetricsInterceptor implements ToolCallInterceptor {
  readonly order = INTERCEPTOR_ORDER.metrics;

  constructor(@Inject(METRICS_RECORDER) private readonly metrics: MetricsRecorder) {}

  intercept(call: ToolCall, next: () => Promise<ToolResult>): Promise<ToolResult> {
    // Not async on this path: metrics off adds no promise and no microtask to a call.
    return this.metrics.enabled ? this.measured(call, next) : next();
  }

  private async measured(call: ToolCall, next: () => Promise<ToolResult>): Promise<ToolResult> {
    const started = performance.now();
    let status: 'ok' | 'error' = 'error';
    try {
      const result = await next();
      if (!result.isError) status = 'ok';
      return result;
    } finally {
      const durationMs = performance.now() - started;
      const policy = call.policy?.decision;
      this.metrics.toolCall({ tool: call.tool.name, source: call.tool.source, status, durationMs, policy });
    }
  }
}
