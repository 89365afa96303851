import { createPostgresBackend, createRedisBackend, withBackend } from 'bullmq';
import type { AnyQueue, AnyWorker } from '../../src/infrastructure/queue/queue-backend';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { NO_POSTGRES, startPostgres } from './postgres-server';
import { NO_REDIS, startRedis } from './redis-server';

/** A real server a queue runs on, for suites that run once per backend. */
export interface QueueServer {
  url: string;
  /** BullMQ's Queue on it, opened as any tool but awf would (to add or remove jobs by hand). */
  queue(name: string): AnyQueue;
  /** BullMQ's own Worker on it, not awf's: takes jobs and hands them to `processor`. */
  worker(name: string, processor: () => Promise<unknown>): AnyWorker;
  /** Cuts every client's connection at once, as a server restart or a network blip would. */
  dropConnections(): Promise<number>;
  stop(): Promise<void>;
}

/** A URL of the backend with a password, where nothing listens: for "the queue is down" tests. */
export const downUrl = (url: string): string => url.replace(/^(\w+:\/\/)[^@/]*@?[^/]+/, '$1awf:hunter2@127.0.0.1:1');

export interface QueueBackendCase {
  name: 'redis-server' | 'PostgreSQL';
  /** Why suites on this backend are skipped, or undefined when they run. */
  skip: string | undefined;
  start(): Promise<QueueServer>;
}

async function redisServer(): Promise<QueueServer> {
  const server = await startRedis();
  const { Queue: RedisQueue, Worker: RedisWorker } = withBackend(createRedisBackend);
  const connection = { host: '127.0.0.1', port: server.port };
  return {
    url: server.url,
    queue: (name) => new RedisQueue(name, { connection }) as AnyQueue,
    worker: (name, processor) => new RedisWorker(name, processor, { connection }) as AnyWorker,
    async dropConnections() {
      const admin = new Redis(server.url);
      try {
        return Number(await admin.call('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes'));
      } finally {
        admin.disconnect();
      }
    },
    stop: () => server.stop(),
  };
}

async function postgresServer(): Promise<QueueServer> {
  const server = await startPostgres();
  const { Queue: PgQueue, Worker: PgWorker } = withBackend(createPostgresBackend);
  const connection = { connectionString: server.url, migrate: true };
  return {
    url: server.url,
    queue: (name) => new PgQueue(name, { connection }) as AnyQueue,
    worker: (name, processor) => new PgWorker(name, processor, { connection }) as AnyWorker,
    async dropConnections() {
      const admin = new Client({ connectionString: server.url });
      await admin.connect();
      try {
        const sql =
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND datname = $1';
        return (await admin.query(sql, ['awf'])).rowCount ?? 0;
      } finally {
        await admin.end();
      }
    },
    stop: () => server.stop(),
  };
}

/** Redis, and BullMQ's PostgreSQL backend: the queue suites run on each. */
export const QUEUE_BACKENDS: QueueBackendCase[] = [
  { name: 'redis-server', skip: NO_REDIS, start: redisServer },
  { name: 'PostgreSQL', skip: NO_POSTGRES, start: postgresServer },
];
