import type { ApprovalDecider } from '../policy/approval-record';
import type { ToolScope } from './tool-scope';

/** One question for the person at the `awf run` terminal. `args` are already masked. */
export interface ApprovalRequest {
  tool: string;
  args: Record<string, unknown>;
  /** The approve rules the call matched, as `<origin>: approve "<match>"`. */
  rules: string[];
  /** Every matched rule says `auto`: granted when nobody can be asked. */
  auto: boolean;
  step?: string;
  runId?: string;
}

/**
 * `once`, `always` (for the rest of this step) and `exact` (this tool with these arguments under
 * this policy, for `expiresInMs`: an exact approval, kept) grant the call; `deny` refuses it. `by`
 * says who decided (and `who`, which person, when `awf serve` asked): the person, the
 * `--approve=all` flag, an `auto` rule, or a refusal for lack of anyone (`unattended`), of
 * time (`timeout`) or of a channel (`no channel`).
 */
export interface ApprovalAnswer {
  answer: 'once' | 'always' | 'exact' | 'deny';
  by: ApprovalDecider;
  /** Which person, when one answered over the HTTP API: the name of their token, or `local`. */
  who?: string;
  /** The question's id, when the channel gave it one (the HTTP API's approval_id). */
  id?: string;
  /** How long an `exact` answer holds; absent: DEFAULT_EXACT_APPROVAL_MS. */
  expiresInMs?: number;
}

/** An exact approval given while answering holds for an hour unless the answer says otherwise. */
export const DEFAULT_EXACT_APPROVAL_MS = 3_600_000;

/**
 * How `mcp-serve` asks the owning `awf run` for a person's approval, over a private channel
 * in the step's temp dir — never through the agent. Never rejects: trouble is a `deny`.
 */
export interface ApprovalGate {
  ask(request: ApprovalRequest, scope: ToolScope): Promise<ApprovalAnswer>;
}

export const APPROVAL_GATE = Symbol.for('awf.ApprovalGate');
