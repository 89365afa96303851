import type { ToolCallEvent } from '../model/tool-call-event';
import type { ToolCallSummary } from '../model/tool-call-summary';

/** What `awf run -f json` prints: the run's status and one entry per executed step. */
export type StepStatus = 'success' | 'failure' | 'cancelled';

export interface StepReport {
  name: string;
  type: 'step' | 'agent' | 'parallel' | 'for_each' | 'while' | 'call_workflow' | 'operation';
  status: StepStatus;
  duration_ms: number;
  exit_code: number;
  output: string;
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

export interface RunReport {
  workflow: string;
  run_id: string;
  status: 'success' | 'failure' | 'cancelled';
  duration_ms: number;
  /** The terminal state reached, if any. */
  terminal?: string;
  /** What `awf run` prints on stdout in text mode. */
  output: string;
  steps: StepReport[];
  error?: RunError;
}
