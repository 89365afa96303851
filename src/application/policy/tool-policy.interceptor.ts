import { randomUUID } from 'node:crypto';
import { relative, sep } from 'node:path';
import type { ToolDefinition } from '../../domain/model/tool-definition';
import { errorResult, type ToolResult } from '../../domain/model/tool-result';
import { type ApprovalGate, DEFAULT_EXACT_APPROVAL_MS } from '../../domain/ports/approval-gate.port';
import type { ExactApprovals } from '../../domain/ports/exact-approvals.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import { InterceptsToolCalls } from '../../domain/ports/markers';
import type { ToolCall, ToolCallInterceptor } from '../../domain/ports/tool-call-interceptor.port';
import type { ToolScope } from '../../domain/ports/tool-scope';
import { approvalRecord, type ApprovalRecord } from '../../domain/policy/approval-record';
import { POLICY_REFUSAL, type PolicyRefusal } from '../../domain/policy/policy.model';
import { commandsOf } from '../../domain/policy/shell-commands';
import type { ApprovalNeed, ToolPolicy } from '../../domain/policy/tool-policy';
import { resultText } from '../../domain/model/tool-result';
import { pathTally, refusalText, refusedSince } from './policy-path.guard';
import { StepPolicyState } from './step-policy.state';

/**
 * Outermost of all (docs/architecture.md): the policy decides first, and a refused call still
 * passes the span, log line and audit line inside it, with its decision on the call.
 */
export const POLICY_INTERCEPTOR_ORDER = -500;

/**
 * The step's tool policy, for every tool source alike (built-ins, plugins, extension
 * modules, upstream servers): a denied tool is not offered and is refused when called, and so
 * is an upstream tool that differs from what awf pinned of it (`changed`, ADR 253); Bash
 * command lines, paths (through the sandbox's PathGuard seam), budgets and a person's
 * approval are checked in that order. A refusal is an `isError` result with its code and
 * deciding rule, handed to the inner interceptors as `call.refused` with the decision on the call.
 */
@InterceptsToolCalls()
export class ToolPolicyInterceptor implements ToolCallInterceptor {
  readonly order = POLICY_INTERCEPTOR_ORDER;
  private readonly states = new WeakMap<ToolScope, StepPolicyState>();

  constructor(
    private readonly gate: ApprovalGate,
    private readonly masker: SecretMasker,
    /** Exact approvals kept across steps and runs (ADR 265); absent: an `exact` answer holds once. */
    private readonly exact?: ExactApprovals,
  ) {}

  filterTools(tools: readonly ToolDefinition[], scope: ToolScope): readonly ToolDefinition[] {
    const policy = scope.policy;
    return tools.filter((t) => !t.changed && !policy?.checkTool(t.name));
  }

  intercept(call: ToolCall, next: () => Promise<ToolResult>): Promise<ToolResult> {
    const policy = call.ctx.scope.policy;
    if (policy) return this.enforced(policy, call, next);
    return call.tool.changed ? refuseChanged(call, next) : next();
  }

  /**
   * Synchronous up to the call itself, with no promise of its own unless a person must be asked:
   * an extra async hop per call was most of what the policy cost on the call path (bench row awf-policy).
   */
  private enforced(policy: ToolPolicy, call: ToolCall, next: () => Promise<ToolResult>): Promise<ToolResult> {
    const { tool, args } = call;
    const isBash = tool.source === 'builtin' && tool.name === 'Bash';
    const command = isBash && typeof args.command === 'string' ? args.command : undefined;
    const refused = policy.checkTool(tool.name) ?? (command !== undefined ? policy.checkCommand(command) : undefined);
    if (refused) return refuse(call, refused, 'denied', next);
    if (tool.changed) return refuseChanged(call, next);
    const state = this.stateOf(call.ctx.scope, policy);
    const writeBytes = tool.source === 'builtin' ? bytesWritten(tool.name, args) : 0;
    const over = state.check(tool.name, writeBytes, isBash);
    if (over) return refuse(call, over, 'denied', next);
    const needs = policy.hasApprovals ? approvalsNeeded(policy, state, call, command) : [];
    if (needs.length === 0 || this.exactlyApproved(call, needs[0].rule))
      return this.allowed(policy, state, call, next, writeBytes, isBash);
    return this.ask(state, call, needs).then((refusal) =>
      refusal
        ? refuse(call, refusal, 'rejected', next, call.policy?.approval)
        : this.allowed(policy, state, call, next, writeBytes, isBash),
    );
  }

  private allowed(
    policy: ToolPolicy,
    state: StepPolicyState,
    call: ToolCall,
    next: () => Promise<ToolResult>,
    writeBytes: number,
    isBash: boolean,
  ): Promise<ToolResult> {
    const { tool, args, ctx } = call;
    state.spend(tool.name, writeBytes);
    const left = isBash ? state.bashMsLeft() : undefined;
    if (left !== undefined) {
      // A Bash call may not run past what is left of the step's bash_seconds.
      const asked = typeof args.timeout === 'number' ? args.timeout : ctx.scope.limits.bash_default_timeout_ms;
      call.args = { ...args, timeout: Math.min(asked, Math.ceil(left)) };
    }
    const started = isBash ? performance.now() : 0;
    const tally = policy.hasPathRules ? pathTally(ctx.scope) : undefined;
    const before = tally?.count ?? 0;
    call.policy ??= { decision: 'allowed' };
    // What the tool's run decides (time spent, paths refused or hidden) is on the call before
    // the interceptors inside record it.
    if (isBash || tally)
      call.afterTool = (result) => {
        if (isBash) state.bashMs += performance.now() - started;
        if (tally && tally.count > before) recordPaths(call, refusedSince(tally, before), tally.count - before, result);
      };
    return next();
  }

  /** A kept exact approval of this tool, these arguments and this policy decides the call. */
  private exactlyApproved(call: ToolCall, rule: string): boolean {
    const kept = this.exact?.find(call.ctx.scope, call.tool.name, call.args);
    if (!kept) return false;
    const approval: ApprovalRecord = {
      id: kept.id,
      rule,
      answer: 'approve',
      scope: 'exact',
      by: kept.by,
      ...(kept.who ? { who: kept.who } : {}),
      at: new Date().toISOString(),
      expires: kept.expires,
    };
    call.policy = { decision: 'approved', rule: `${rule} (exact approval ${kept.id.slice(0, 8)})`, approval };
    return true;
  }

  /** Asks the person (or the run's standing answer) about a call that needs approval. */
  private async ask(state: StepPolicyState, call: ToolCall, needs: ApprovalNeed[]): Promise<PolicyRefusal | undefined> {
    const { tool, args, ctx } = call;
    const masked = JSON.parse(this.masker.mask(JSON.stringify(args))) as Record<string, unknown>;
    const request = {
      tool: tool.name,
      args: masked,
      rules: needs.map((n) => n.rule),
      auto: needs.every((n) => n.auto),
      step: ctx.scope.step,
      runId: ctx.scope.runId,
    };
    const answer = await this.gate.ask(request, ctx.scope);
    const approval = approvalRecord(answer, needs[0].rule, randomUUID);
    if (answer.answer === 'exact') {
      const expiresInMs = answer.expiresInMs ?? DEFAULT_EXACT_APPROVAL_MS;
      const grant = { by: answer.by, who: approval.who, expiresInMs, shown: masked };
      approval.expires = approval.at; // held for this call alone unless it is kept
      try {
        const kept = this.exact?.grant(ctx.scope, tool.name, args, grant);
        if (kept) approval.expires = kept.expires;
      } catch {
        // A store that cannot be written keeps nothing: the call is approved once, the next one asks.
      }
    }
    call.policy = { decision: answer.answer === 'deny' ? 'rejected' : 'approved', approval };
    const decidedBy = answer.who ? `${answer.by} ${answer.who}` : answer.by;
    if (answer.answer === 'deny') {
      const why = {
        person: answer.who ? `${answer.who} denied it` : 'the person denied it',
        flag: 'denied',
        auto: 'denied',
        unattended: 'nobody was there to approve it (no terminal; see awf run --approve)',
        timeout: 'nobody answered in time',
        'no channel': 'this proxy has no approval channel to its awf run',
      }[answer.by];
      return {
        code: POLICY_REFUSAL.approval,
        // Who refused it, when a person over the HTTP API did.
        rule: answer.who ? `${needs[0].rule} (${decidedBy})` : needs[0].rule,
        message: `${tool.name} needs a person's approval and ${why}`,
      };
    }
    if (answer.answer === 'always') for (const n of needs) state.alwaysApproved.add(n.rule);
    call.policy = {
      decision: 'approved',
      rule: `${needs[0].rule} (${decidedBy}${HOW_LONG[answer.answer]})`,
      approval,
    };
    return undefined;
  }

  private stateOf(scope: ToolScope, policy: ToolPolicy): StepPolicyState {
    let state = this.states.get(scope);
    if (!state) this.states.set(scope, (state = new StepPolicyState(policy.budgets)));
    return state;
  }
}

const HOW_LONG = { once: '', always: ', always for this step', exact: ', exactly these arguments', deny: '' };

/** The approve rules the call matches that this step has not approved "always"; notes those it has. */
function approvalsNeeded(
  policy: ToolPolicy,
  state: StepPolicyState,
  call: ToolCall,
  command: string | undefined,
): ApprovalNeed[] {
  const matched = policy.approvalsFor(call.tool.name, () => subjectsOf(call, command));
  const needs = matched.filter((n) => !state.alwaysApproved.has(n.rule));
  if (matched.length > 0 && needs.length === 0)
    call.policy = { decision: 'approved', rule: `${matched[0].rule} (always for this step)` };
  return needs;
}

/** The tool does not run; the interceptors inside still record the call and its decision. */
function refuse(
  call: ToolCall,
  refusal: PolicyRefusal,
  decision: 'denied' | 'rejected',
  next: () => Promise<ToolResult>,
  approval?: ApprovalRecord,
): Promise<ToolResult> {
  call.policy = { decision, code: refusal.code, rule: refusal.rule, ...(approval ? { approval } : {}) };
  call.refused = errorResult(refusalText(refusal));
  return next();
}

/** A tool that differs from its pin (ADR 253): refused before budgets and approvals, which no answer can lift. */
function refuseChanged(call: ToolCall, next: () => Promise<ToolResult>): Promise<ToolResult> {
  const { name, source, changed } = call.tool;
  const message = `${name} is hidden and refused: ${changed}`;
  return refuse(call, { code: POLICY_REFUSAL.changed, rule: `pinned ${source}`, message }, 'denied', next);
}

/** A path the sandbox refused decided the call; paths only dropped from a listing are noted. */
function recordPaths(call: ToolCall, refused: PolicyRefusal[], hidden: number, result: ToolResult): void {
  const text = result.isError ? resultText(result) : '';
  const decisive = refused.find((r) => text.includes(refusalText(r)));
  call.policy = decisive
    ? { decision: 'denied', code: decisive.code, rule: decisive.rule }
    : { ...call.policy!, hidden };
}

/** What an `approve` rule's `Tool:pattern` is matched with: each command of a Bash line, or the path. */
function subjectsOf(call: ToolCall, command: string | undefined): string[] {
  if (command !== undefined) {
    try {
      return [command, ...commandsOf(command).map((c) => c.text)];
    } catch {
      return [command];
    }
  }
  const path = call.args.file_path ?? call.args.path;
  if (typeof path !== 'string') return [];
  const rel = relative(call.ctx.scope.rootDir, path).split(sep).join('/');
  return rel.startsWith('..') ? [path] : [rel, path];
}

/** Bytes a built-in call writes: Write's content, Edit's replacement text. */
function bytesWritten(name: string, args: Record<string, unknown>): number {
  const text = name === 'Write' ? args.content : name === 'Edit' ? args.new_string : undefined;
  return typeof text === 'string' ? Buffer.byteLength(text) : 0;
}
