import type { ApprovalRequest } from '../../domain/ports/approval-gate.port';
import type { RunEvent } from '../../domain/ports/run-queue.port';
import { signAnswer } from './job-signature';
import { RunEventLog } from './run-event-log';
import { WorkerApprovals } from './worker-approvals';

const SECRET = 'unit-secret-0123456789';
const request = (runId: string, auto = false): ApprovalRequest => ({
  tool: 'Write',
  args: { file_path: 'a.txt' },
  rules: ['step work: approve "Write"'],
  auto,
  step: 'work',
  runId,
});

/** A run's job log as BullMQ keeps it (rows in order), for one run. */
function jobLog(runId: string) {
  const rows: string[] = [];
  const log = new RunEventLog(
    {
      addJobLog: async (_id: string, row: string) => rows.push(row),
      getJobLogs: async () => ({ logs: rows, count: rows.length }),
    } as never,
    runId,
  );
  const events = (): RunEvent[] => rows.map((r) => JSON.parse(r) as RunEvent);
  return { log, events };
}
const asked = async (events: () => RunEvent[]): Promise<string> => {
  for (;;) {
    const e = events().find((x) => x.t === 'approval');
    if (e?.t === 'approval') return e.approval.approval_id;
    await new Promise((r) => setImmediate(r));
  }
};
const progress = (runId: string, approvalId: string, secret = SECRET) => ({
  answer: signAnswer(
    { run_id: runId, approval_id: approvalId, answer: { answer: 'once', by: 'person', who: 'ops' } },
    secret,
  ),
});

describe('WorkerApprovals: questions of runs on a worker, answers through the queue', () => {
  it('asks through the run log; takes only a signed answer for that run and question, once', async () => {
    const approvals = new WorkerApprovals(SECRET);
    const { log, events } = jobLog('r1');
    approvals.track('r1', log);
    const answer = approvals.ask(request('r1'), 60_000);
    const id = await asked(events);
    expect(events()[0]).toMatchObject({
      t: 'approval',
      approval: { tool: 'Write', scopes: ['once', 'step'] },
    });
    approvals.received('r1', progress('r1', id, 'another-secret')); // not ours: ignored
    approvals.received('r1', { answer: { payload: '{}', sig: 'zz' } }); // tampered: ignored
    approvals.received('r2', progress('r2', id)); // signed for another run: ignored
    approvals.received('r1', progress('r1', 'stale-question')); // no such question waits
    approvals.received('r1', progress('r1', id));
    await expect(answer).resolves.toEqual({ answer: 'once', by: 'person', who: 'ops', id });
    approvals.received('r1', progress('r1', id)); // a duplicate: nothing more happens
    await new Promise((r) => setImmediate(r));
    expect(events().filter((e) => e.t === 'approval-resolved')).toEqual([
      { t: 'approval-resolved', approval_id: id, answer: 'once', by: 'ops' },
    ]);
  });

  it('no answer in time: denied (an auto rule: approved); a run not on this worker: unattended', async () => {
    const approvals = new WorkerApprovals(SECRET);
    const { log } = jobLog('r1');
    approvals.track('r1', log);
    await expect(approvals.ask(request('r1'), 20)).resolves.toMatchObject({ answer: 'deny', by: 'timeout' });
    await expect(approvals.ask(request('r1', true), 20)).resolves.toMatchObject({ answer: 'once', by: 'auto' });
    await expect(approvals.ask(request('elsewhere'), 60_000)).resolves.toEqual({ answer: 'deny', by: 'unattended' });
  });

  it('a run that leaves the worker (ended, handed back) denies what it still asked; a late answer is ignored', async () => {
    const approvals = new WorkerApprovals(SECRET);
    const { log, events } = jobLog('r1');
    approvals.track('r1', log);
    const answer = approvals.ask(request('r1'), 60_000);
    const id = await asked(events);
    approvals.untrack('r1');
    await expect(answer).resolves.toMatchObject({ answer: 'deny', by: 'no channel' });
    approvals.received('r1', progress('r1', id));
    await expect(approvals.ask(request('r1'), 60_000)).resolves.toMatchObject({ by: 'unattended' });
  });
});
