/**
 * The editor at the other end of `awf acp-serve`, as the ACP use case sees it: where a session's
 * updates go and whom a policy `approve` rule asks. The shapes are the Agent Client Protocol's
 * (v1) own, so the edge hands them to the SDK unchanged.
 */

/** `_meta.awf` of a message: the code of what went wrong, and the awf code beneath it. */
export interface AcpMeta {
  awf: { code: string; cause?: string };
}

export type AcpToolKind = 'read' | 'edit' | 'delete' | 'move' | 'search' | 'execute' | 'fetch' | 'other';
export type AcpToolStatus = 'pending' | 'in_progress' | 'completed' | 'failed';

export interface AcpCommand {
  name: string;
  description: string;
  input?: { hint: string };
  _meta?: Record<string, unknown>;
}

export type AcpUpdate =
  | {
      sessionUpdate: 'agent_message_chunk' | 'agent_thought_chunk';
      content: { type: 'text'; text: string };
      _meta?: AcpMeta;
    }
  | {
      sessionUpdate: 'tool_call';
      toolCallId: string;
      title: string;
      kind: AcpToolKind;
      status: AcpToolStatus;
      rawInput?: unknown;
    }
  | {
      sessionUpdate: 'tool_call_update';
      toolCallId: string;
      status: AcpToolStatus;
      content?: Array<{ type: 'content'; content: { type: 'text'; text: string } }>;
    }
  | { sessionUpdate: 'available_commands_update'; availableCommands: AcpCommand[] };

/** What the editor chose in its permission dialog; `cancelled` when the turn was cancelled. */
export type AcpPermissionChoice = 'allow_once' | 'allow_always' | 'reject_once' | 'cancelled';

export interface AcpPermissionRequest {
  sessionId: string;
  toolCallId: string;
  title: string;
  kind: AcpToolKind;
  /** Masked. */
  rawInput: Record<string, unknown>;
  /** The label of the `allow_always` option (its scope: the rest of the step). */
  alwaysLabel: string;
}

export interface AcpEditor {
  /** Best effort: an editor that is gone loses the update, the run goes on. */
  update(sessionId: string, update: AcpUpdate): Promise<void>;
  /** `session/request_permission`; rejects when the editor cannot answer. */
  requestPermission(request: AcpPermissionRequest, signal: AbortSignal): Promise<AcpPermissionChoice>;
  /** The editor's name from `initialize` (`clientInfo.name`), once known. */
  readonly name?: string;
}
