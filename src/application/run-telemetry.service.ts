import type { ToolCallEvent } from '../domain/model/tool-call-event';
import { inheritedTraceparent } from '../domain/model/traceparent';
import { summarizeToolCalls, type ToolCallSummary } from '../domain/model/tool-call-summary';
import type { MetricsRecorder } from '../domain/ports/metrics.port';
import type { RunHistory } from '../domain/ports/run-history.port';
import type { TraceSpan, Tracer } from '../domain/ports/tracer.port';

/** The facts of a finished step that its span and summary need (a subset of StepResult). */
export interface FinishedStep {
  name: string;
  type?: string;
  status: string;
  duration_ms: number;
  exit_code?: number;
  error?: { code: string; message: string };
}

export interface StepToolSummary {
  tool_summary: ToolCallSummary;
  events: ToolCallEvent[];
}

/**
 * What `run` does for observability, in one place: the spans `workflow.run` → `step <name>`
 * (the parent of every `tool.call` of that step, in `mcp-serve` or in-process), the step's
 * audit events read back after it ran, the step and run durations as metrics, and the run's
 * `run.json`. Every method is safe to call with tracing and metrics off (no-ops) and without
 * a run history.
 */
export class RunTelemetry {
  constructor(
    private readonly tracer: Tracer,
    private readonly env: Readonly<Record<string, string | undefined>>,
    private readonly history?: RunHistory,
    private readonly metrics?: MetricsRecorder,
  ) {}

  /** A CI system that exports TRACEPARENT gets the run as a child of its own span. */
  startRun(workflow: string, runId: string): TraceSpan {
    const parent = inheritedTraceparent(this.env);
    return this.tracer.startSpan('workflow.run', {
      parent,
      attributes: { 'awf.workflow': workflow, 'awf.run_id': runId },
    });
  }

  startStep(run: TraceSpan, step: { name: string; type: string; provider?: string }): TraceSpan {
    return this.tracer.startSpan(`step ${step.name}`, {
      parent: run,
      attributes: {
        'awf.step': step.name,
        'awf.step.type': step.type,
        ...(step.provider ? { 'awf.step.provider': step.provider } : {}),
      },
    });
  }

  /** Records the outcome and the summary of the step's audit events on its span, and ends it. */
  finishStep(
    span: TraceSpan,
    step: FinishedStep,
    events?: readonly ToolCallEvent[],
    workflow = '',
  ): StepToolSummary | undefined {
    this.metrics?.step({
      workflow,
      step: step.name,
      type: step.type ?? 'step',
      status: step.status,
      durationMs: step.duration_ms,
    });
    const summary = events ? summarizeToolCalls(events) : undefined;
    for (const event of events ?? []) if (event.policy?.decision === 'bypassed') this.bypassSpan(span, event);
    span.setAttributes({
      'awf.step.status': step.status,
      'awf.step.duration_ms': step.duration_ms,
      ...(step.exit_code !== undefined ? { 'awf.step.exit_code': step.exit_code } : {}),
      ...(summary ? { 'awf.step.tool_calls': summary.calls, 'awf.step.tool_errors': summary.errors } : {}),
      ...(summary?.policy?.bypassed ? { 'awf.step.tool_bypassed': summary.policy.bypassed } : {}),
    });
    if (step.status === 'failure') span.fail(step.error?.message ?? `step ${step.name} failed`);
    span.end();
    return events && summary ? { tool_summary: summary, events: [...events] } : undefined;
  }

  /**
   * A tool the agent ran on its own never reached `mcp-serve`, so no `tool.call` span exists for
   * it: `run` adds one under the step, with the same attributes, so a trace shows the bypass.
   */
  private bypassSpan(step: TraceSpan, event: ToolCallEvent): void {
    const policy = event.policy!;
    this.tracer
      .startSpan(`tool.call ${event.tool}`, {
        parent: step,
        attributes: {
          'tool.name': event.tool,
          'tool.source': event.source,
          'tool.args_shape': JSON.stringify(event.args_shape),
          'tool.duration_ms': event.duration_ms,
          'tool.status': event.status,
          'policy.decision': policy.decision,
          ...(policy.rule ? { 'policy.rule': policy.rule } : {}),
          ...(event.step ? { 'awf.step': event.step } : {}),
          ...(event.run_id ? { 'awf.run_id': event.run_id } : {}),
        },
      })
      .end();
  }

  finishRun(
    span: TraceSpan,
    run: { workflow: string; run_id: string; status: string; duration_ms: number; error?: { message: string } },
    dir?: string,
    startedAt?: Date,
  ): void {
    this.metrics?.run({ workflow: run.workflow, status: run.status, durationMs: run.duration_ms });
    span.setAttributes({ 'awf.run.status': run.status, 'awf.run.duration_ms': run.duration_ms });
    if (run.status === 'failure') span.fail(run.error?.message ?? 'run failed');
    span.end();
    try {
      this.history?.saveMeta(
        {
          run_id: run.run_id,
          workflow: run.workflow,
          status: run.status,
          ...(startedAt ? { started_at: startedAt.toISOString() } : {}),
          finished_at: new Date().toISOString(),
          duration_ms: run.duration_ms,
        },
        dir,
      );
    } catch {
      // The record is for `awf runs show`; a full disk must not turn a finished run into a crash.
    }
  }
}
