import { join } from 'node:path';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { maskUrl } from '../core/masked-url';
import { storageRoot } from './run-files.store';

/** Where the run history lives: `<storage>/history.db` (the default), or a shared PostgreSQL database. */
export type HistoryLocation =
  | { dialect: 'sqlite'; file: string; label: string }
  | { dialect: 'postgres'; url: string; label: string; password?: string };

/**
 * `--history URL` wins over AWF_HISTORY_URL; with neither, the SQLite file in the storage dir
 * (read per call: --storage sets AWF_STORAGE before any command runs). The URL's password never
 * reaches a message: `label` is what they show.
 */
export function historyLocation(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): HistoryLocation {
  const url = flag || env.AWF_HISTORY_URL;
  if (!url) {
    const file = join(storageRoot(env), 'history.db');
    return { dialect: 'sqlite', file, label: file };
  }
  const label = maskUrl(url);
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['postgres:', 'postgresql:'].includes(parsed.protocol) || !parsed.hostname) {
    throw new AwfError(
      ErrorCodes.HISTORY_INVALID_URL,
      `the history URL ${label} is not a postgres:// URL`,
      { url: label },
      'Give --history (or AWF_HISTORY_URL) as postgres://[user:password@]host:port/database; leave it unset for SQLite.',
    );
  }
  return {
    dialect: 'postgres',
    url,
    label,
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
  };
}
