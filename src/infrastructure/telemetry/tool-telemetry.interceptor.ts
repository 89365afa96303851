import { Inject, Injectable } from '@nestjs/common';
import type { ToolResult } from '../../domain/model/tool-result';
import { InterceptsToolCalls } from '../../domain/ports/markers';
import { METRICS_RECORDER, type MetricsRecorder } from '../../domain/ports/metrics.port';
import type { ToolCall, ToolCallInterceptor } from '../../domain/ports/tool-call-interceptor.port';
import { type SpanAttributes, TRACER, type Tracer } from '../../domain/ports/tracer.port';
import { argsShape } from './args-shape';
import { elapsedMs, INTERCEPTOR_ORDER, outcomeOf } from './tool-call-outcome';

/**
 * The OpenTelemetry side of a call, on the `mcp-serve` path and the in-process path alike: one
 * span `tool.call <tool>`, a child of the step's span (the scope's traceparent), with arguments
 * as their shape only; and the metrics (mcp.tool.calls, mcp.tool.errors, awf.policy.decisions,
 * mcp.tool.duration) by tool, source and outcome. A call the policy refused is recorded too.
 */
@InterceptsToolCalls()
@Injectable()
export class ToolTelemetryInterceptor implements ToolCallInterceptor {
  readonly order = INTERCEPTOR_ORDER.telemetry;

  constructor(
    @Inject(TRACER) private readonly tracer: Tracer,
    @Inject(METRICS_RECORDER) private readonly metrics: MetricsRecorder,
  ) {}

  intercept(call: ToolCall, next: () => Promise<ToolResult>): Promise<ToolResult> {
    // Telemetry off adds no promise and no microtask to a call.
    return this.tracer.enabled || this.metrics.enabled ? this.recorded(call, next) : next();
  }

  private async recorded(call: ToolCall, next: () => Promise<ToolResult>): Promise<ToolResult> {
    const { tool, ctx } = call;
    const attributes: SpanAttributes = {
      'tool.name': tool.name,
      'tool.source': tool.source,
      'tool.call_id': ctx.callId,
      'tool.args_shape': JSON.stringify(argsShape(call.args)),
    };
    if (ctx.scope.step) attributes['awf.step'] = ctx.scope.step;
    if (ctx.scope.runId) attributes['awf.run_id'] = ctx.scope.runId;
    if (ctx.scope.workflow) attributes['awf.workflow'] = ctx.scope.workflow;
    const span = this.tracer.startSpan(`tool.call ${tool.name}`, { parent: ctx.scope.traceparent, attributes });
    ctx.traceparent = span.traceparent; // a provider that calls out passes it on (an upstream's _meta.traceparent)
    const started = performance.now();
    let result: ToolResult | undefined;
    try {
      result = await next();
      return result;
    } finally {
      const durationMs = elapsedMs(started);
      const { status, error } = result
        ? outcomeOf(result, call.args, call.policy?.rule)
        : { status: 'error' as const, error: 'failed' };
      const ended: SpanAttributes = { 'tool.duration_ms': durationMs, 'tool.status': status };
      if (error) ended['tool.error'] = error;
      if (call.policy) {
        ended['policy.decision'] = call.policy.decision;
        if (call.policy.code) ended['policy.code'] = call.policy.code;
        if (call.policy.rule) ended['policy.rule'] = call.policy.rule;
      }
      span.setAttributes(ended);
      if (error) span.fail(error);
      span.end();
      const policy = call.policy?.decision;
      this.metrics.toolCall({ tool: tool.name, source: tool.source, status, durationMs, policy });
    }
  }
}
