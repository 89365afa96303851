import { Inject, Injectable } from '@nestjs/common';
import type { ToolCallEvent } from '../../domain/model/tool-call-event';
import { parseTraceparent } from '../../domain/model/traceparent';
import type { ToolResult } from '../../domain/model/tool-result';
import { InterceptsToolCalls } from '../../domain/ports/markers';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import type { ToolCall, ToolCallInterceptor } from '../../domain/ports/tool-call-interceptor.port';
import { SECRET_MASKER } from '../../domain/ports/tokens';
import { argsShape } from './args-shape';
import { AuditTrailWriter } from './audit-trail.writer';
import { elapsedMs, INTERCEPTOR_ORDER, outcomeOf } from './tool-call-outcome';

/**
 * One audit line per call in the step's `events_path`; nothing when the scope has none. It is
 * written before the answer: a reader that has the result finds its line, and `awf run` finds
 * the last call's line as soon as the agent has exited.
 */
@InterceptsToolCalls()
@Injectable()
export class AuditTrailInterceptor implements ToolCallInterceptor {
  readonly order = INTERCEPTOR_ORDER.audit;

  constructor(
    private readonly writer: AuditTrailWriter,
    @Inject(SECRET_MASKER) private readonly masker: SecretMasker,
  ) {}

  intercept(call: ToolCall, next: () => Promise<ToolResult>): Promise<ToolResult> {
    const path = call.ctx.scope.eventsPath;
    return path ? this.audited(path, call, next) : next();
  }

  private async audited(path: string, call: ToolCall, next: () => Promise<ToolResult>): Promise<ToolResult> {
    const start = Date.now();
    const started = performance.now();
    const pending = next();
    // next() runs the chain down to the provider's first await (an upstream's request is written
    // by then): what does not depend on the outcome is worked out while the tool runs.
    const { scope } = call.ctx;
    // One literal of fixed shape (an absent field is undefined, which JSON leaves out): spreads of
    // optional fields made V8 build a new hidden class for the object on every call (ADR 182).
    const event: ToolCallEvent = {
      run_id: scope.runId || undefined,
      step: scope.step || undefined,
      tool: call.tool.name,
      source: call.tool.source,
      start: new Date(start).toISOString(),
      duration_ms: 0,
      status: 'ok',
      error: undefined,
      args_shape: argsShape(call.args),
      policy: undefined,
      // Set by the telemetry interceptor (outside this one) when tracing is on.
      trace_id: call.ctx.traceparent ? parseTraceparent(call.ctx.traceparent)?.traceId : undefined,
    };
    const result = await pending;
    const { status, error } = outcomeOf(result, call.args, call.policy?.rule);
    event.duration_ms = elapsedMs(started);
    event.status = status;
    event.error = error ? this.masker.mask(error) : undefined;
    event.policy = call.policy;
    this.writer.append(path, event);
    return result;
  }
}
