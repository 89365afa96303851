import type { EventEmitter } from 'node:events';
import { createPostgresBackend, createRedisBackend, type IQueueBackend, withBackend } from 'bullmq';
import type { Redis } from 'ioredis';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { maskPassword, type QueueSettings } from './queue-settings';
import { checkRedis, openRedis } from './redis-connection';

export const QUEUE_NAME = 'awf-runs';

/** BullMQ's Queue, Worker and QueueEvents, bound to one backend. */
type Classes = ReturnType<typeof withBackend<IQueueBackend, unknown>>;
export type AnyQueue = InstanceType<Classes['Queue']>;
export type AnyWorker = InstanceType<Classes['Worker']>;
export type AnyQueueEvents = InstanceType<Classes['QueueEvents']>;

/** Connections per PostgreSQL pool (each Queue, Worker, QueueEvents has one, plus its LISTEN client). */
const PG_POOL_MAX = 4;

/**
 * BullMQ on the backend the queue URL names: Redis, or BullMQ's own PostgreSQL backend (its
 * tables in the `bullmq` schema, created or migrated on first connect). Everything above uses
 * only BullMQ's classes from here, so both backends share one code path.
 */
export class QueueBackend {
  readonly Queue: Classes['Queue'];
  readonly Worker: Classes['Worker'];
  readonly QueueEvents: Classes['QueueEvents'];
  private readonly opened: Redis[] = [];
  private last = '';
  private lastAt = 0;

  constructor(
    private readonly settings: QueueSettings,
    private readonly log: (line: string) => void,
  ) {
    const factory = settings.kind === 'postgres' ? createPostgresBackend : createRedisBackend;
    ({
      Queue: this.Queue,
      Worker: this.Worker,
      QueueEvents: this.QueueEvents,
    } = withBackend(factory as Parameters<typeof withBackend<IQueueBackend, unknown>>[0]));
  }

  /**
   * The connection for one more BullMQ object: Redis connections wait out an outage (see openRedis).
   * `ordered`: one connection, so calls reach the server in the order they were made (a run's events).
   */
  connection(ordered = false): unknown {
    if (this.settings.kind === 'postgres') return { ...postgresConfig(this.settings), ...(ordered ? { max: 1 } : {}) };
    const redis = openRedis(this.settings, (message) => this.report(message));
    redis.on('ready', () => (this.last = '')); // a later outage is reported again
    this.opened.push(redis);
    return redis;
  }

  /** Reports a BullMQ object's errors once each, masked, and keeps it from crashing the process. */
  watch<T extends EventEmitter>(object: T): T {
    object.on('error', (err: Error) => this.report(maskPassword(err.message, this.settings)));
    return object;
  }

  /** Ends the Redis connections it opened; BullMQ's PostgreSQL objects end their pools on close. */
  disconnect(): void {
    for (const redis of this.opened.splice(0)) redis.disconnect();
  }

  /** Each message once until the queue is back (Redis: ready) or for a minute (PostgreSQL has no such signal). */
  private report(message: string): void {
    if (message === this.last && Date.now() - this.lastAt < 60_000) return;
    this.log(`queue ${this.settings.label}: ${message}; retrying`);
    this.last = message;
    this.lastAt = Date.now();
  }
}

function postgresConfig(settings: QueueSettings, connectionTimeoutMillis = 10_000) {
  return { connectionString: settings.url, migrate: true, max: PG_POOL_MAX, connectionTimeoutMillis };
}

/** At start, one try: a queue that is not there is a clear SYSTEM error naming the masked URL. */
export async function checkReachable(settings: QueueSettings): Promise<void> {
  if (settings.kind === 'redis') return checkRedis(settings);
  const { Queue } = withBackend(createPostgresBackend);
  const probe = new Queue(QUEUE_NAME, { connection: postgresConfig(settings, 3000) });
  probe.on('error', () => undefined); // the rejection below says why
  try {
    await probe.waitUntilReady();
  } catch (err) {
    throw new AwfError(
      ErrorCodes.QUEUE_UNAVAILABLE,
      `cannot reach the queue at ${settings.label}: ${maskPassword((err as Error).message, settings)}`,
      { url: settings.label },
      'Start PostgreSQL or fix --queue / AWF_QUEUE_URL; `psql URL -c "select 1"` must answer, ' +
        'and its user may create the `bullmq` schema.',
    );
  } finally {
    await probe.close().catch(() => undefined);
  }
}
