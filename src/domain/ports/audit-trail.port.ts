import type { ToolCallEvent } from '../model/tool-call-event';

/** Appends one audit line to an events file (`events_path`): tool calls, and MCP catalog requests. */
export interface AuditTrail {
  append(path: string, event: ToolCallEvent): void;
}

export const AUDIT_TRAIL = Symbol.for('awf.AuditTrail');
