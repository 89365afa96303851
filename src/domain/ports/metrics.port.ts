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

/** One run a worker took from the queue and ended (handed back runs are not counted). */
export interface QueuedRunMeasure {
  workflow: string;
  status: string;
  /** From enqueued (or handed back) to taken. */
  waitMs: number;
  /** From taken to ended. */
  runMs: number;
}

/** The queue's jobs by state, as a worker reads them when the metrics are collected. */
export interface QueueDepth {
  waiting: number;
  active: number;
  delayed: number;
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
  queuedRun(run: QueuedRunMeasure): void;
  /** Observes the queue's depth (`awf.queue.depth`) whenever metrics are collected, through `read`. */
  observeQueue(read: () => Promise<QueueDepth>): void;
}

export const METRICS_RECORDER = Symbol.for('awf.MetricsRecorder');

export const NOOP_METRICS: MetricsRecorder = Object.freeze({
  enabled: false,
  toolCall: () => undefined,
  step: () => undefined,
  run: () => undefined,
  queuedRun: () => undefined,
  observeQueue: () => undefined,
});
