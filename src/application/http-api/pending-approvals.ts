import { randomUUID } from 'node:crypto';
import type { ApprovalAnswer, ApprovalRequest } from '../../domain/ports/approval-gate.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import type { ApprovalView, RunEventLog } from './run-event-log';

/** A person's answer over the HTTP API. */
export interface ApprovalDecision {
  decision: 'approve' | 'deny';
  scope: 'once' | 'step' | 'exact';
  /** The name of the caller's token, or `local`. */
  who: string;
  /** How long an `exact` approval holds (absent: an hour). */
  expiresInMs?: number;
}

export type DecideOutcome = 'decided' | 'already-decided' | 'unknown' | 'scope-not-offered';

interface Waiting {
  runId: string;
  view: ApprovalView;
  settle(answer: ApprovalAnswer, decided: Pick<ApprovalView, 'decision' | 'scope' | 'by'>): void;
}

const KEEP_DECIDED = 500;
const ANSWER_OF = { once: 'once', step: 'always', exact: 'exact' } as const;

/**
 * The questions of the runs `awf serve` runs, answered over HTTP instead of at a terminal: the
 * approval desk hands each one here (`ask`); it waits, listed and announced on the run's stream
 * (`approval.required`), until a person decides, nobody has within the desk's timeout (denied),
 * or the run ends. Many runs may wait at once: nothing queues.
 */
export class PendingApprovals {
  private readonly waiting = new Map<string, Waiting>();
  private readonly decided = new Map<string, ApprovalView & { runId: string }>();

  constructor(
    /** The event log of a run this process runs; undefined for any other run. */
    private readonly liveLog: (runId: string) => RunEventLog | undefined,
    private readonly masker: SecretMasker,
    private readonly timeoutMs: number,
  ) {}

  readonly ask = (request: ApprovalRequest): Promise<ApprovalAnswer> => {
    const runId = request.runId;
    const log = runId ? this.liveLog(runId) : undefined;
    // A proxy whose run this server does not run has nobody to ask here.
    if (!runId || !log) return Promise.resolve({ answer: 'deny', by: 'no channel' });
    const view: ApprovalView = {
      approval_id: randomUUID(),
      step: request.step ?? '',
      tool: request.tool,
      arguments: JSON.parse(this.masker.mask(JSON.stringify(request.args))) as Record<string, unknown>,
      rule: request.rules[0] ?? '',
      rules: request.rules,
      requested_at: new Date().toISOString(),
    };
    return new Promise((resolve) => this.wait(runId, log, view, resolve, this.timeoutMs));
  };

  /**
   * A question a run on a worker asked (ADR 310): listed and announced as this server's own; a
   * person's answer goes to `send`. The worker keeps the time: it says when it gave up (`resolved`).
   */
  waitRemote(runId: string, question: ApprovalView, send: (answer: ApprovalAnswer) => void): void {
    const log = this.liveLog(runId);
    if (!log || this.waiting.has(question.approval_id) || this.decided.has(question.approval_id)) return;
    const view = { ...question, arguments: JSON.parse(this.masker.mask(JSON.stringify(question.arguments))) };
    this.wait(runId, log, view, (answer) => answer.by === 'person' && send(answer));
  }

  /** The worker settled a question itself (no answer in time, its run gone): no longer waiting. */
  resolved(approvalId: string, answer: ApprovalAnswer['answer'], by: string): void {
    const decision = answer === 'deny' ? 'deny' : 'approve';
    this.waiting.get(approvalId)?.settle({ answer, by: 'no channel' }, { decision, scope: 'once', by });
  }

  private wait(
    runId: string,
    log: RunEventLog,
    view: ApprovalView,
    resolve: (answer: ApprovalAnswer) => void,
    timeoutMs?: number,
  ): void {
    log.emit({ kind: 'approval.required', step: view.step, tool: view.tool, approval: view });
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(
            () =>
              settle(
                { answer: 'deny', by: 'timeout', id: view.approval_id },
                { decision: 'deny', scope: 'once', by: 'timeout' },
              ),
            timeoutMs,
          );
    const settle: Waiting['settle'] = (answer, decided) => {
      clearTimeout(timer);
      this.waiting.delete(view.approval_id);
      const done = { ...view, ...decided, resolved_at: new Date().toISOString() };
      this.remember(runId, done);
      if (!log.finished) {
        const status = answer.answer === 'deny' ? 'denied' : 'approved';
        log.emit({ kind: 'approval.resolved', step: view.step, tool: view.tool, status, approval: done });
      }
      resolve(answer);
    };
    this.waiting.set(view.approval_id, { runId, view, settle });
  }

  /** The questions a run waits on now, oldest first. */
  list(runId: string): ApprovalView[] {
    return [...this.waiting.values()].filter((w) => w.runId === runId).map((w) => w.view);
  }

  /** Every question waiting, oldest first, with the run it belongs to. */
  listAll(): Array<ApprovalView & { execution_id: string }> {
    return [...this.waiting.values()].map((w) => ({ execution_id: w.runId, ...w.view }));
  }

  decide(runId: string, approvalId: string, d: ApprovalDecision): { outcome: DecideOutcome; approval?: ApprovalView } {
    const w = this.waiting.get(approvalId);
    if (!w || w.runId !== runId) {
      const old = this.decided.get(approvalId);
      return old && old.runId === runId ? { outcome: 'already-decided', approval: old } : { outcome: 'unknown' };
    }
    // A run on a worker says which scopes it can honour (ADR 310).
    if (d.decision === 'approve' && w.view.scopes && !w.view.scopes.includes(d.scope))
      return { outcome: 'scope-not-offered', approval: w.view };
    const answer: ApprovalAnswer = {
      answer: d.decision === 'deny' ? 'deny' : ANSWER_OF[d.scope],
      by: 'person',
      who: d.who,
      id: approvalId,
      ...(d.expiresInMs ? { expiresInMs: d.expiresInMs } : {}),
    };
    w.settle(answer, { decision: d.decision, scope: d.scope, by: d.who });
    return { outcome: 'decided', approval: this.decided.get(approvalId) };
  }

  /** The run is over: whatever it still asked is moot (its proxy is gone); denied, quietly. */
  endRun(runId: string): void {
    for (const w of [...this.waiting.values()])
      if (w.runId === runId) w.settle({ answer: 'deny', by: 'no channel' }, { decision: 'deny', scope: 'once' });
  }

  private remember(runId: string, view: ApprovalView): void {
    this.decided.set(view.approval_id, { ...view, runId });
    if (this.decided.size > KEEP_DECIDED) this.decided.delete(this.decided.keys().next().value as string);
  }
}
