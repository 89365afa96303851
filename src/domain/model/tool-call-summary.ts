import type { ToolCallEvent } from './tool-call-event';

/** What `run` prints after a step: how many calls, how many failed, which tool was slowest. */
export interface ToolCallSummary {
  calls: number;
  errors: number;
  /** Absent when the step called no tool. */
  slowest?: { tool: string; duration_ms: number };
  /** Calls the step's policy did not simply allow, by decision; absent when there were none. */
  policy?: Partial<Record<'denied' | 'approved' | 'rejected' | 'bypassed', number>>;
}

export function summarizeToolCalls(events: readonly ToolCallEvent[]): ToolCallSummary {
  let slowest: ToolCallSummary['slowest'];
  let errors = 0;
  let policy: ToolCallSummary['policy'];
  for (const event of events) {
    if (event.status === 'error') errors++;
    const decision = event.policy?.decision;
    if (decision && decision !== 'allowed') policy = { ...policy, [decision]: (policy?.[decision] ?? 0) + 1 };
    if (!slowest || event.duration_ms > slowest.duration_ms)
      slowest = { tool: event.tool, duration_ms: event.duration_ms };
  }
  return { calls: events.length, errors, ...(slowest ? { slowest } : {}), ...(policy ? { policy } : {}) };
}

/** One line, e.g. `12 tool calls, 1 error, slowest Bash 830 ms`. */
export function formatToolCallSummary(summary: ToolCallSummary): string {
  if (summary.calls === 0) return 'no tool calls';
  const calls = `${summary.calls} tool call${summary.calls === 1 ? '' : 's'}`;
  const errors = `${summary.errors} error${summary.errors === 1 ? '' : 's'}`;
  const policy = summary.policy
    ? `, policy ${Object.entries(summary.policy)
        .map(([d, n]) => `${n} ${d}`)
        .join(', ')}`
    : '';
  return (
    (summary.slowest
      ? `${calls}, ${errors}, slowest ${summary.slowest.tool} ${summary.slowest.duration_ms} ms`
      : `${calls}, ${errors}`) + policy
  );
}
