import type { ToolCallEvent } from '../../domain/model/tool-call-event';

/** One audit line, newline included, never exceeds this: small enough for one atomic append. */
export const MAX_AUDIT_LINE_BYTES = 4096;

/**
 * Serialises an event to one JSON line of at most {@link MAX_AUDIT_LINE_BYTES}. When too
 * long, the error message is cut first, then the argument shape is replaced by its key
 * count, then the names are cut: the line stays valid JSON and keeps its numbers.
 */
export function formatAuditLine(event: ToolCallEvent): string {
  let line = serialize(event);
  if (fits(line)) return line;
  const overflow = Buffer.byteLength(line) - MAX_AUDIT_LINE_BYTES;
  if (event.error) {
    const keep = Math.max(0, event.error.length - overflow - 16);
    line = serialize({ ...event, error: `${event.error.slice(0, keep)}…` });
    if (fits(line)) return line;
  }
  const compact: ToolCallEvent = {
    ...event,
    error: event.error?.slice(0, 512),
    args_shape: { '…': `${Object.keys(event.args_shape).length} keys` },
  };
  line = serialize(compact);
  if (fits(line)) return line;
  return serialize({
    ...compact,
    tool: event.tool.slice(0, 64),
    source: event.source.slice(0, 128),
    step: event.step?.slice(0, 128),
    run_id: event.run_id?.slice(0, 128),
    error: compact.error?.slice(0, 256),
  });
}

function serialize(event: ToolCallEvent): string {
  return `${JSON.stringify(event)}\n`;
}

function fits(line: string): boolean {
  // A UTF-16 unit is at most 3 UTF-8 bytes: short lines (every ordinary call) need no count.
  return line.length * 3 <= MAX_AUDIT_LINE_BYTES || Buffer.byteLength(line) <= MAX_AUDIT_LINE_BYTES;
}
