import type { RunQueue, RunWorkerPool, WorkerOptions } from '../../domain/ports/run-queue.port';
import { BullmqRunQueue } from './bullmq-run-queue.adapter';
import { BullmqWorkerPool } from './bullmq-worker-pool.adapter';
import type { QueueSettings } from './queue-settings';
import { checkReachable } from './queue-backend';

/**
 * The queue through BullMQ, on Redis or on BullMQ's PostgreSQL backend. Required by LazyRunQueues
 * only when a command uses a queue.
 */
export class BullmqRunQueues {
  async client(settings: QueueSettings, log: (line: string) => void): Promise<RunQueue> {
    await checkReachable(settings);
    return new BullmqRunQueue(settings, log);
  }

  async worker(
    settings: QueueSettings,
    options: WorkerOptions & { workdir: string; lockMs: number },
  ): Promise<RunWorkerPool> {
    await checkReachable(settings);
    return new BullmqWorkerPool(settings, options);
  }
}
