/** One finished tool call, as the metrics see it (never its arguments). */
export interface ToolCallMeasure {
  tool: string;
  source: string;
  status: 'ok' | 'error';
  durationMs: number;
  /** What the step's policy decided, when it had a say. */
  policy?: string;
}

export interface StepMeasure {
  workflow: string;
  step: string;
  type: string;
  status: string;
  durationMs: number;
}

export interface RunMeasure {
  workflow: string;
  status: string;
  durationMs: number;
}

/**
 * Counters and histograms of tool calls, policy decisions, steps and runs. Until metrics are
 * switched on (an OTLP metrics exporter) every method is a no-op costing a call, and no
 * metrics code is loaded; callers never check `enabled` except to skip work of their own.
 */
export interface MetricsRecorder {
  readonly enabled: boolean;
  toolCall(call: ToolCallMeasure): void;
  step(step: StepMeasure): void;
  run(run: RunMeasure): void;
}

export const METRICS_RECORDER = Symbol.for('awf.MetricsRecorder');

export const NOOP_METRICS: MetricsRecorder = Object.freeze({
  enabled: false,
  toolCall: () => undefined,
  step: () => undefined,
  run: () => undefined,
});
