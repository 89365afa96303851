import type { PolicyDecision } from '../policy/policy.model';

/**
 * One line of a step's audit trail (`events_path`, JSON Lines, one line per tool call,
 * at most 4 KiB). Arguments appear only as their shape: keys and sizes, never values.
 */
export interface ToolCallEvent {
  run_id?: string;
  step?: string;
  tool: string;
  /** `builtin`, `plugin:<name>` or `module:<name>`. */
  source: string;
  /** ISO-8601 start time. */
  start: string;
  duration_ms: number;
  status: 'ok' | 'error';
  error?: string;
  /** Argument name → size: string length, array length, or the type name for other values. */
  args_shape: Record<string, number | string>;
  /** What the step's policy decided (docs/policy.md); absent when the step has no policy. */
  policy?: PolicyDecision;
  /** The trace of the call's span, when tracing is on: where to look it up in the trace backend. */
  trace_id?: string;
}
