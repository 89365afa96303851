import type { ToolCallEvent } from '../../../domain/model/tool-call-event';

/**
 * One audit line as the Logs tab shows it: time, step, tool, source, duration, outcome, the
 * arguments' shape and a policy decision other than allowed. A line that is not a tool call's
 * audit event (AWF_AUDIT_LOG may name any JSON Lines file) is shown as it is.
 */
export function auditLine(line: string): string {
  let event: Partial<ToolCallEvent>;
  try {
    event = JSON.parse(line) as Partial<ToolCallEvent>;
  } catch {
    return line;
  }
  if (typeof event !== 'object' || event === null || typeof event.tool !== 'string') return line;
  const time = typeof event.start === 'string' ? event.start.slice(11, 23) : '—';
  const outcome = event.status === 'error' ? `error ${event.error ?? ''}`.trim() : 'ok';
  const shape = Object.entries(event.args_shape ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  const policy = event.policy && event.policy.decision !== 'allowed' ? `  [policy ${event.policy.decision}]` : '';
  const facts = [time, event.step ?? '', event.tool, event.source ?? '', `${event.duration_ms ?? 0}ms`, outcome];
  return `${facts.join('  ')}${shape ? `  (${shape})` : ''}${policy}`.replace(/\s*\n\s*/g, ' ');
}
