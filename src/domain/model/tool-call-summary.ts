import type { ToolCallEvent } from './tool-call-event';

/** What `run` prints after a step: how many calls, how many failed, which tool was slowest. */
export interface ToolCallSummary {
  calls: number;
  errors: number;
  /** Absent when the step called no tool. */
  slowest?: { tool: string; duration_ms: number };
}

export function summarizeToolCalls(events: readonly ToolCallEvent[]): ToolCallSummary {
  let slowest: ToolCallSummary['slowest'];
  let errors = 0;
  for (const event of events) {
    if (event.status === 'error') errors++;
    if (!slowest || event.duration_ms > slowest.duration_ms) slowest = { tool: event.tool, duration_ms: event.duration_ms };
  }
  return { calls: events.length, errors, ...(slowest ? { slowest } : {}) };
}

/** One line, e.g. `12 tool calls, 1 error, slowest Bash 830 ms`. */
export function formatToolCallSummary(summary: ToolCallSummary): string {
  if (summary.calls === 0) return 'no tool calls';
  const calls = `${summary.calls} tool call${summary.calls === 1 ? '' : 's'}`;
  const errors = `${summary.errors} error${summary.errors === 1 ? '' : 's'}`;
  return summary.slowest ? `${calls}, ${errors}, slowest ${summary.slowest.tool} ${summary.slowest.duration_ms} ms` : `${calls}, ${errors}`;
}
