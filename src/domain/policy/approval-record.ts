/** Who or what decided: a person, the `--approve` flag, an `auto` rule, or a lack of anyone, time or channel. */
export type ApprovalDecider = 'person' | 'flag' | 'auto' | 'unattended' | 'timeout' | 'no channel';

/**
 * A person's (or a standing rule's) answer to a call that matched an `approve` rule, as every
 * approval path records it — the `awf run` terminal, `awf serve` over HTTP, an ACP editor — in
 * the call's audit line (`policy.approval`): which question, under which rule, what was answered
 * for how long, by what and whom, and when.
 */
export interface ApprovalRecord {
  /** The question's id: the one `GET /api/executions/{id}/approvals` listed, when asked over HTTP. */
  id: string;
  rule: string;
  answer: 'approve' | 'deny';
  /**
   * `once`: this call; `step`: every call of the rule for the rest of the step; `exact`: calls of
   * this tool with these very arguments under this policy, until `expires` (an exact approval).
   */
  scope: 'once' | 'step' | 'exact';
  by: ApprovalDecider;
  /**
   * The person: a token's name over HTTP, the editor's name over ACP (`clientInfo.name`), `local`
   * at the terminal or on a server without tokens.
   */
  who?: string;
  at: string;
  /** When an `exact` approval lapses. */
  expires?: string;
}

/** The answer as an approval gate gives it (approval-gate.port.ts). */
interface Answer {
  answer: 'once' | 'always' | 'exact' | 'deny';
  by: ApprovalDecider;
  who?: string;
  id?: string;
}

export function approvalRecord(answer: Answer, rule: string, newId: () => string): ApprovalRecord {
  return {
    id: answer.id ?? newId(),
    rule,
    answer: answer.answer === 'deny' ? 'deny' : 'approve',
    scope: answer.answer === 'always' ? 'step' : answer.answer === 'exact' ? 'exact' : 'once',
    by: answer.by,
    who: answer.who ?? (answer.by === 'person' ? 'local' : undefined),
    at: new Date().toISOString(),
  };
}
