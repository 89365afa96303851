import type BetterSqlite3 from 'better-sqlite3';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';

export type Database = BetterSqlite3.Database;

/**
 * Opens `file` with better-sqlite3, required here and only here, on first use: `mcp-serve`
 * and commands that never touch the history never load the native addon. A missing or
 * mismatched native build is a coded SYSTEM error that says how to get one, not a crash.
 */
export function openDatabase(file: string, load: () => unknown = () => require('better-sqlite3')): Database {
  let Driver: typeof BetterSqlite3;
  try {
    Driver = load() as typeof BetterSqlite3;
  } catch (err) {
    throw unavailable(file, err);
  }
  try {
    return new Driver(file, { timeout: 10_000 });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/bindings|\.node|NODE_MODULE_VERSION|invalid ELF/i.test(message)) throw unavailable(file, err);
    throw new AwfError(
      ErrorCodes.HISTORY_FAILED,
      `cannot open the run history ${file}: ${message}`,
      { file },
      'Check that the storage directory (--storage, $AWF_STORAGE) is writable.',
      { cause: err },
    );
  }
}

function unavailable(file: string, err: unknown): AwfError {
  // The `bindings` package's message goes on with "Tried:" and a list of paths: the first clause says it.
  const reason = (err instanceof Error ? err.message : String(err)).split('\n')[0].replace(/[.\s]*Tried:$/, '');
  return new AwfError(
    ErrorCodes.HISTORY_UNAVAILABLE,
    `the run history needs better-sqlite3's native build, which cannot be loaded: ${reason}`,
    { file },
    'Build it in the project that installed awf: `npm rebuild better-sqlite3` (an install with --ignore-scripts' +
      ' skips it; it compiles SQLite where no prebuilt binary fits, with a C++ compiler, make and python3).',
    { cause: err },
  );
}
