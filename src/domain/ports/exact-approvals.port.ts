import type { ApprovalDecider } from '../policy/approval-record';
import type { ToolScope } from './tool-scope';

/**
 * An exact approval: calls of `tool` whose arguments have the digest `args_digest`, under the
 * policy whose digest is `policy_digest`, are approved without asking until `expires`. Any other
 * arguments, another policy, a later time or a revocation asks again.
 */
export interface ExactApproval {
  id: string;
  tool: string;
  args_digest: string;
  policy_digest: string;
  /** The arguments as granted, masked: for `awf approvals list` and the dashboard. */
  args: Record<string, unknown>;
  /** A person who answered (`who` names them; `cli` for `awf approvals grant`). */
  by: ApprovalDecider;
  who?: string;
  at: string;
  expires: string;
}

/** What a grant needs besides the call itself. */
export interface ExactGrant {
  by: ApprovalDecider;
  who?: string;
  expiresInMs: number;
  /** The arguments masked, as they are shown. */
  shown: Record<string, unknown>;
}

/**
 * The kept exact approvals of a data dir (the scope's), found and granted on the call path of
 * the policy interceptor. Never throws on the call path: a store it cannot read approves nothing.
 */
export interface ExactApprovals {
  /** The live approval that covers this call under the scope's policy, if any. */
  find(scope: ToolScope, tool: string, args: Record<string, unknown>): ExactApproval | undefined;
  grant(scope: ToolScope, tool: string, args: Record<string, unknown>, grant: ExactGrant): ExactApproval;
}

/** The kept approvals of one data dir as people see and revoke them (`awf approvals`, the HTTP API). */
export interface KeptApprovals {
  /** Those not yet expired, oldest first. */
  list(): ExactApproval[];
  /** Throws USER.POLICY.APPROVAL_NOT_FOUND for an id not kept. */
  revoke(id: string): ExactApproval;
}

export const EXACT_APPROVALS = Symbol.for('awf.ExactApprovals');
