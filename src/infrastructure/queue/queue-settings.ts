import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { maskUrl } from '../core/masked-url';

/** Which of BullMQ's backends the URL names: Redis, or its PostgreSQL backend. */
export type QueueKind = 'redis' | 'postgres';

const KINDS: Record<string, QueueKind> = {
  'redis:': 'redis',
  'rediss:': 'redis',
  'postgres:': 'postgres',
  'postgresql:': 'postgres',
};

/** What a queue needs before it connects: its URL, the URL as messages show it, and the signing secret. */
export interface QueueSettings {
  url: string;
  kind: QueueKind;
  /** The URL with its password masked: the only form that reaches a message or a log. */
  label: string;
  password?: string;
  secret: string;
}

/** Shorter secrets are refused: an HMAC key must not be guessable. */
const MIN_SECRET = 16;

/** Checks the URL and the secret, so a bad set-up fails before anything connects or is loaded. */
export function queueSettings(url: string, env: NodeJS.ProcessEnv): QueueSettings {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  const label = maskUrl(url);
  const kind = parsed && KINDS[parsed.protocol];
  if (!parsed || !kind || !parsed.hostname) {
    throw new AwfError(
      ErrorCodes.QUEUE_INVALID_URL,
      `the queue URL ${label} is not a redis:// or postgres:// URL`,
      { url: label },
      'Give --queue (or AWF_QUEUE_URL) as redis://[user:password@]host:port[/db] ' +
        'or postgres://[user:password@]host:port/database.',
    );
  }
  const secret = env.AWF_QUEUE_SECRET ?? '';
  if (secret.length < MIN_SECRET) {
    throw new AwfError(
      ErrorCodes.QUEUE_NO_SECRET,
      secret
        ? `AWF_QUEUE_SECRET is shorter than ${MIN_SECRET} characters`
        : 'AWF_QUEUE_SECRET is not set: jobs on the queue are signed with it',
      { url: label },
      'Set the same AWF_QUEUE_SECRET for `awf run --queue` and every `awf worker`, e.g. `openssl rand -hex 32`.',
    );
  }
  return { url, kind, label, secret, ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}) };
}

/** An error message of a driver with the URL's password, should it quote it, masked. */
export function maskPassword(message: string, settings: QueueSettings): string {
  return settings.password ? message.split(settings.password).join('***') : message;
}
