import { randomUUID } from 'node:crypto';
import type { ApprovalAnswer, ApprovalRequest } from '../../domain/ports/approval-gate.port';
import type { QueuedApproval } from '../../domain/ports/run-queue.port';
import { openAnswer } from './job-signature';
import type { RunEventLog } from './run-event-log';

/** With nobody to ask (`unattended`) or no answer in time (`timeout`): only an `auto` rule approves. */
const nobody = (request: ApprovalRequest, by: 'unattended' | 'timeout'): ApprovalAnswer =>
  request.auto ? { answer: 'once', by: 'auto' } : { answer: 'deny', by };

interface Waiting {
  runId: string;
  settle(answer: ApprovalAnswer): void;
}

/**
 * The approval questions of a worker's runs (ADR 310): each is an `approval` event in its run's
 * log, where `awf serve` (following the run) lists it; the person's answer comes back signed, as
 * the run job's progress, announced through QueueEvents. An answer to no question waiting here
 * (answered already, timed out, asked by a worker the run was taken from) is ignored.
 */
export class WorkerApprovals {
  private readonly logs = new Map<string, RunEventLog>();
  private readonly waiting = new Map<string, Waiting>();

  constructor(private readonly secret: string) {}

  /** The run now runs here: its questions go to its log. */
  track(runId: string, events: RunEventLog): void {
    this.logs.set(runId, events);
  }

  /** The run ended or left: what it still asked is moot (its proxy is gone). */
  untrack(runId: string): void {
    this.logs.delete(runId);
    for (const w of [...this.waiting.values()]) if (w.runId === runId) w.settle({ answer: 'deny', by: 'no channel' });
  }

  ask(request: ApprovalRequest, timeoutMs: number): Promise<ApprovalAnswer> {
    const runId = request.runId;
    const events = runId ? this.logs.get(runId) : undefined;
    // A child job's task (fan-out) asks for its parent run, which runs elsewhere: nobody to ask here.
    if (!runId || !events) return Promise.resolve(nobody(request, 'unattended'));
    const approval: QueuedApproval = {
      approval_id: randomUUID(),
      step: request.step ?? '',
      tool: request.tool,
      arguments: request.args,
      rule: request.rules[0] ?? '',
      rules: request.rules,
      // `exact` grants are kept in the data dir of whoever records them: a worker's would not be
      // serve's to list or revoke, so runs on workers offer the two scopes that need no record.
      scopes: ['once', 'step'],
      requested_at: new Date().toISOString(),
    };
    const id = approval.approval_id;
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle(nobody(request, 'timeout')), timeoutMs);
      const settle = (answer: ApprovalAnswer): void => {
        clearTimeout(timer);
        this.waiting.delete(id);
        const by = answer.who ?? answer.by;
        void events.add({ t: 'approval-resolved', approval_id: id, answer: answer.answer, by }).catch(() => undefined);
        resolve({ ...answer, id });
      };
      this.waiting.set(id, { runId, settle });
      events.add({ t: 'approval', approval }).catch(() => settle({ answer: 'deny', by: 'no channel' }));
    });
  }

  /** A run job's progress: a signed answer to a question waiting here settles it; anything else is ignored. */
  received(jobId: string, progress: unknown): void {
    const signed = (progress as { answer?: unknown } | undefined)?.answer;
    if (!signed) return;
    const answer = openAnswer(signed, this.secret, jobId);
    const waiting = answer && this.waiting.get(answer.approval_id);
    if (waiting && waiting.runId === jobId) waiting.settle({ ...answer.answer, id: answer.approval_id });
  }
}
