import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { maskUrl } from '../core/masked-url';

/** What a queue needs before it connects: its URL, the URL as messages show it, and the signing secret. */
export interface QueueSettings {
  url: string;
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
  if (!parsed || (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') || !parsed.hostname) {
    throw new AwfError(
      ErrorCodes.QUEUE_INVALID_URL,
      `the queue URL ${label} is not a redis:// URL`,
      { url: label },
      'Give --queue (or AWF_QUEUE_URL) as redis://[user:password@]host:port[/db].',
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
  return { url, label, secret, ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}) };
}
