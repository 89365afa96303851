import type { Redis } from 'ioredis';
import type { RunEvent } from '../../domain/ports/run-queue.port';

/** How long a run's events stay after it ended, for late followers. */
const KEEP_SECONDS = 7 * 24 * 3600;

export const eventsKey = (runId: string): string => `awf:run:${runId}:events`;
export const cancelKey = (runId: string): string => `awf:run:${runId}:cancel`;
export const CANCEL_CHANNEL = 'awf:cancel';

/**
 * One run's events as a Redis stream (XADD), read from the start by followers and by the worker
 * that takes the run over. Writes on one connection keep their order.
 */
export class RunEventStream {
  constructor(
    private readonly redis: Redis,
    private readonly runId: string,
  ) {}

  add(event: RunEvent): Promise<unknown> {
    const key = eventsKey(this.runId);
    if (event.t !== 'end') return this.redis.xadd(key, '*', 'e', JSON.stringify(event));
    return this.redis.multi().xadd(key, '*', 'e', JSON.stringify(event)).expire(key, KEEP_SECONDS).exec();
  }

  async all(): Promise<RunEvent[]> {
    const entries = await this.redis.xrange(eventsKey(this.runId), '-', '+');
    return entries.map(([, fields]) => parse(fields));
  }

  /** The events after `lastId`, waiting up to `blockMs` for one (a blocking read: a connection of its own). */
  async after(lastId: string, blockMs: number): Promise<{ lastId: string; events: RunEvent[] }> {
    const answer = await this.redis.xread('BLOCK', blockMs, 'STREAMS', eventsKey(this.runId), lastId);
    const entries = answer?.[0]?.[1] ?? [];
    return { lastId: entries.at(-1)?.[0] ?? lastId, events: entries.map(([, fields]) => parse(fields)) };
  }
}

function parse(fields: string[]): RunEvent {
  return JSON.parse(fields[fields.indexOf('e') + 1]) as RunEvent;
}
