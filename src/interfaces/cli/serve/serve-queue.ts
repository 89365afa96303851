import { runOnQueue } from '../../../application/queue/queued-run-follow';
import type { QueuedRuns } from '../../../application/queue/queued-runs.service';
import type { ExecutionHubDeps } from '../../../application/http-api/execution-hub.service';
import type { RunQueues } from '../../../domain/ports/run-queue.port';
import { queueUrl } from '../worker/queue-flag';

export interface ServeQueue {
  /** The queue's URL, its password masked. */
  label: string;
  runOn: NonNullable<ExecutionHubDeps['runOn']>;
  close(): Promise<void>;
}

/**
 * `awf serve --queue [URL]` (alone: AWF_QUEUE_URL): the runs it is asked for go to the workers,
 * and are followed from there (docs/scale-out.md). Without `--queue` runs stay in-process, as
 * `awf run` without `--queue` never uses a queue, whatever the environment says.
 */
export async function openServeQueue(
  flag: string | true | undefined,
  queues: RunQueues,
  queued: QueuedRuns,
): Promise<ServeQueue | undefined> {
  if (flag === undefined) return undefined;
  const queue = await queues.client(queueUrl(flag));
  return {
    label: queue.label,
    runOn: (request, stopping, approvals) => runOnQueue(queue, queued, request, stopping, approvals),
    close: () => queue.close(),
  };
}
