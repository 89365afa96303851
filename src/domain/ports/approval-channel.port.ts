/**
 * The `awf run` end of the approval channel: a unix socket (0600) in the step's private dir
 * where that step's `mcp-serve` asks its questions. Every channel of a run answers through
 * one desk, so parallel steps' questions reach the person one at a time.
 */
export interface ApprovalChannel {
  close(): void;
}

export interface ApprovalChannels {
  open(socketPath: string): Promise<ApprovalChannel>;
}

export const APPROVAL_CHANNELS = Symbol.for('awf.ApprovalChannels');
