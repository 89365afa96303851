import type { ApprovalRecord } from './approval-record';
/**
 * A tool policy as written (`policy:` in `.awf/config.yaml`, `mcp_proxy.policy` on a step),
 * after parsing: every field optional, sizes in bytes. The effective policy of a step is the
 * list of its layers, each of which must allow a call: a step can narrow the defaults but
 * never widen them (docs/policy.md, ADR 170).
 */
export interface PolicySpec {
  tools?: { allow?: string[]; deny?: string[] };
  paths?: { read?: string[]; write?: string[]; deny?: string[] };
  bash?: { allow?: string[]; deny?: string[] };
  budgets?: PolicyBudgets;
  approve?: ApproveRule[];
  /**
   * What a native tool use (an agent's own shell or editor, around the proxy) does to the step:
   * `audit` (the default) records it as `bypassed`; `strict` also stops the agent and fails the step.
   */
  enforce?: 'audit' | 'strict';
  /** Every Bash call under bubblewrap (docs/tools.md); `{network: true}` lets it reach the network. */
  bash_sandbox?: boolean | { network: boolean };
}

export interface PolicyBudgets {
  calls?: number;
  per_tool?: Record<string, number>;
  write_bytes?: number;
  bash_seconds?: number;
}

/** `Tool` or `Tool:pattern` (a command for Bash, a path for file tools); `auto` approves with nobody to ask. */
export interface ApproveRule {
  match: string;
  auto?: boolean;
}

/** One layer of the effective policy; `origin` names where it was written, for the deciding rule. */
export interface PolicyLayer extends PolicySpec {
  origin: string;
}

export type PathAccess = 'read' | 'write' | 'list';

export const POLICY_REFUSAL = {
  tool: 'POLICY.TOOL_DENIED',
  path: 'POLICY.PATH_DENIED',
  command: 'POLICY.COMMAND_DENIED',
  budget: 'POLICY.BUDGET_EXCEEDED',
  approval: 'POLICY.APPROVAL_DENIED',
  changed: 'POLICY.TOOL_CHANGED',
} as const;

export type PolicyRefusalCode = (typeof POLICY_REFUSAL)[keyof typeof POLICY_REFUSAL];

/** Why a call is refused: the code the agent can act on, and the rule that decided. */
export interface PolicyRefusal {
  code: PolicyRefusalCode;
  rule: string;
  message: string;
}

/** What the policy decided about one call: the record kept in audit, span, log and summary. */
export interface PolicyDecision {
  /** `bypassed`: the agent used its own tool, which the policy never saw (recorded by `awf run`). */
  decision: 'allowed' | 'denied' | 'approved' | 'rejected' | 'bypassed';
  code?: PolicyRefusalCode;
  rule?: string;
  /** Paths dropped from a Glob/Grep answer by the path rules. */
  hidden?: number;
  /** The answer to an `approve` rule's question, when one was asked. */
  approval?: ApprovalRecord;
}

/** The layer that makes the step strict, as its rule reads (`step review: enforce "strict"`); absent: audit only. */
export function strictRule(layers: readonly PolicyLayer[]): string | undefined {
  const layer = layers.find((l) => l.enforce === 'strict');
  return layer ? `${layer.origin}: enforce "strict"` : undefined;
}
