import type { RunEvent, RunQueue } from '../../domain/ports/run-queue.port';
import type { RunReport } from '../../domain/workflow/run-report.model';
import type { PendingApprovals } from '../http-api/pending-approvals';
import type { RunRequest } from '../workflow/workflow.service';
import type { QueuedRuns } from './queued-runs.service';
import { replay } from './run-events';

/**
 * A run `awf serve` starts with a queue: checked and packed as `awf run --queue` does it,
 * enqueued, announced with its id (the POST answers then), and followed to its end through the
 * same observer a local run reports to, so its event stream is the same. Aborting the request's
 * signal cancels the run on its worker, unless the server is `stopping`: then it only stops
 * following (undefined), and the run goes on. The questions its worker asks wait in `approvals`.
 */
export async function runOnQueue(
  queue: RunQueue,
  queued: QueuedRuns,
  request: RunRequest,
  stopping: () => boolean,
  approvals?: PendingApprovals,
): Promise<RunReport | undefined> {
  const { target, inputs, projectInputs, env, cwd, observer, signal } = request;
  const prepared = await queued.prepare({ target, inputs, projectInputs, env, cwd, observer });
  const job = approvals ? { ...prepared, ask: true } : prepared;
  await queue.enqueue(job);
  observer?.runStarted?.(job.run_id, job.workflow);
  observer?.info?.(`run ${job.run_id} queued on ${queue.label}`);
  const following = new AbortController();
  const onAbort = (): void => {
    if (stopping()) following.abort();
    else void queue.cancel(job.run_id).catch(() => undefined);
  };
  signal.addEventListener('abort', onAbort, { once: true });
  // It was announced when queued: a worker's start is news, not a second start.
  const seen = { started: true };
  let taken = false;
  const id = job.run_id;
  const onEvent = (e: RunEvent): void => {
    // Its questions wait in the server's list (ADR 310); the person's answer goes back through the queue.
    if (approvals && e.t === 'approval')
      return approvals.waitRemote(
        id,
        e.approval,
        (a) => void queue.answer(id, e.approval.approval_id, a).catch(() => undefined),
      );
    if (approvals && e.t === 'approval-resolved') return approvals.resolved(e.approval_id, e.answer, e.by);
    // Another worker took the run over: what the last one asked is moot.
    if (approvals && (e.t === 'handed-back' || (e.t === 'started' && taken))) approvals.endRun(id);
    if (e.t === 'started' && !taken) {
      taken = true;
      observer?.info?.(`run ${job.run_id} taken by worker ${e.worker}`);
    } else if (observer) replay(e, observer, seen);
  };
  try {
    return await queue.follow(job.run_id, onEvent, following.signal);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
