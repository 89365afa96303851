import { Inject, Injectable } from '@nestjs/common';
import type { ToolResult } from '../../domain/model/tool-result';
import { InterceptsToolCalls } from '../../domain/ports/markers';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import type { ToolCall, ToolCallInterceptor } from '../../domain/ports/tool-call-interceptor.port';
import { SECRET_MASKER } from '../../domain/ports/tokens';
import { onceAnswered } from '../logging/after-answer';
import { argsShape } from './args-shape';
import { AuditTrailWriter } from './audit-trail.writer';
import { elapsedMs, INTERCEPTOR_ORDER, outcomeOf } from './tool-call-outcome';

/**
 * One audit line per call in the step's `events_path`; nothing when the scope has none. It is
 * written just after the answer, in the same turn (`onceAnswered`): on disk before awf reads the
 * agent's next message, and the answer does not wait for the write (ADR 238).
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
    const result = await next();
    const duration = elapsedMs(started);
    onceAnswered(() => this.write(path, call, result, start, duration));
    return result;
  }

  private write(path: string, call: ToolCall, result: ToolResult, start: number, duration: number): void {
    const { status, error } = outcomeOf(result, call.args);
    const { scope } = call.ctx;
    // One literal of fixed shape (an absent field is undefined, which JSON leaves out): spreads of
    // optional fields made V8 build a new hidden class for the object on every call (ADR 182).
    this.writer.append(path, {
      run_id: scope.runId || undefined,
      step: scope.step || undefined,
      tool: call.tool.name,
      source: call.tool.source,
      start: new Date(start).toISOString(),
      duration_ms: duration,
      status,
      error: error ? this.masker.mask(error) : undefined,
      args_shape: argsShape(call.args),
      policy: call.policy,
    });
  }
}
