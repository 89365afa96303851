import type { ToolCallEvent } from '../model/tool-call-event';
import type { ToolCallSummary } from '../model/tool-call-summary';
import type { StepStateData } from './interpolation.types';

export type StepStatus = 'success' | 'failure' | 'cancelled';

/**
 * One executed step: what observers are told, what the run's report lists, what the history
 * keeps (with its `seq`) and what a queued run's events carry. `state` is what later steps'
 * templates read as `states.<name>`; `awf run -f json` prints the rest (`reportJson`).
 */
export interface StepResult {
  name: string;
  type: 'step' | 'agent' | 'parallel' | 'for_each' | 'while' | 'call_workflow' | 'operation';
  status: StepStatus;
  started_at: string;
  duration_ms: number;
  exit_code: number;
  /** `state.Output`, as `-f json` prints it. */
  output: string;
  state: StepStateData;
  /** Where the run went after this step (absent: it ended here, or the step is not routed yet). */
  next?: string;
  tool_calls: number;
  /** Agent steps with a proxy: calls, errors and the slowest tool, from the step's audit trail. */
  tool_summary?: ToolCallSummary;
  /** The step's audit events, one per tool call. */
  events?: ToolCallEvent[];
  attempts?: number;
  error?: RunError;
}

export interface RunError {
  code: string;
  message: string;
  hint?: string;
}

/** What `awf run -f json` prints: the run's status and one entry per executed step. */
export interface RunReport {
  workflow: string;
  run_id: string;
  status: 'success' | 'failure' | 'cancelled';
  duration_ms: number;
  /** The terminal state reached, if any. */
  terminal?: string;
  /** What `awf run` prints on stdout in text mode. */
  output: string;
  steps: StepResult[];
  error?: RunError;
}

/** The report as `awf run -f json` prints it: a step's `state`, `started_at` and `next` are the history's. */
export function reportJson(report: RunReport): object {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const steps = report.steps.map(({ state, started_at, next, ...printed }) => printed);
  return { ...report, steps };
}
