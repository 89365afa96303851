import { Inject, Injectable } from '@nestjs/common';
import type { ToolResult } from '../../domain/model/tool-result';
import { InterceptsToolCalls } from '../../domain/ports/markers';
import type { ToolCall, ToolCallInterceptor } from '../../domain/ports/tool-call-interceptor.port';
import { type SpanAttributes, type TraceSpan, TRACER, type Tracer } from '../../domain/ports/tracer.port';
import { argsShape } from './args-shape';
import { elapsedMs, INTERCEPTOR_ORDER, outcomeOf } from './tool-call-outcome';

/**
 * One span `tool.call <tool>` per call, a child of the step's span (the scope's
 * traceparent), on the `mcp-serve` path and the in-process path alike. Arguments appear
 * as their shape only.
 */
@InterceptsToolCalls()
@Injectable()
export class TracingInterceptor implements ToolCallInterceptor {
  readonly order = INTERCEPTOR_ORDER.tracing;

  constructor(@Inject(TRACER) private readonly tracer: Tracer) {}

  intercept(call: ToolCall, next: () => Promise<ToolResult>): Promise<ToolResult> {
    // Not async on this path: tracing off adds no promise and no microtask to a call.
    return this.tracer.enabled ? this.traced(call, next) : next();
  }

  private async traced(call: ToolCall, next: () => Promise<ToolResult>): Promise<ToolResult> {
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
    try {
      const result = await next();
      this.finish(span, call, result, elapsedMs(started));
      return result;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      span.setAttributes({ 'tool.duration_ms': elapsedMs(started), 'tool.status': 'error', 'tool.error': message });
      span.fail(message);
      span.end();
      throw err;
    }
  }

  private finish(span: TraceSpan, call: ToolCall, result: ToolResult, durationMs: number): void {
    const { status, error } = outcomeOf(result, call.args);
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
  }
}
