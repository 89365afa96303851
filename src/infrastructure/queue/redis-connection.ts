import { Redis } from 'ioredis';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { maskPassword, type QueueSettings } from './queue-settings';

/** Reconnect back-off: 0.2 s, 0.4 s, … up to 5 s, forever; a queue that blinks is waited for. */
const backoff = (attempt: number): number => Math.min(attempt * 200, 5000);

/**
 * A connection that waits out an outage: commands queue while it reconnects (BullMQ's workers
 * need `maxRetriesPerRequest: null`), so a run never fails because Redis went away a moment.
 * Its errors go to `onError` (masked), never to ioredis's own console lines.
 */
export function openRedis(settings: QueueSettings, onError: (message: string) => void): Redis {
  const redis = new Redis(settings.url, { maxRetriesPerRequest: null, retryStrategy: backoff });
  redis.on('error', (err: Error) => {
    onError(maskPassword(err.message, settings));
  });
  return redis;
}

/** At start, one try: a queue that is not there is a clear SYSTEM error, not an endless retry. */
export async function checkRedis(settings: QueueSettings): Promise<void> {
  const probe = new Redis(settings.url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectTimeout: 3000,
    retryStrategy: () => null,
  });
  let cause: Error | undefined; // "Connection is closed" hides why; the first error says it (ECONNREFUSED…)
  probe.on('error', (err: Error) => (cause ??= err));
  try {
    await probe.connect();
    await probe.ping();
  } catch (err) {
    throw new AwfError(
      ErrorCodes.QUEUE_UNAVAILABLE,
      `cannot reach the queue at ${settings.label}: ${maskPassword((cause ?? (err as Error)).message, settings)}`,
      { url: settings.label },
      'Start Redis or fix --queue / AWF_QUEUE_URL; `redis-cli -u URL ping` must answer PONG.',
    );
  } finally {
    probe.disconnect();
  }
}
