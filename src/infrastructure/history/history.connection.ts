import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, PostgresDialect, sql, SqliteDialect } from 'kysely';
import type { Pool } from 'pg';
import { AwfError, isAwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { HistoryLocation } from './history-location';
import { migrateHistory, type MigrationReport } from './history.migrations';
import type { HistoryTables } from './history.tables';
import { type Database, openDatabase } from './sqlite.loader';

export interface HistoryConnection {
  db: Kysely<HistoryTables>;
  /** What opening it migrated, and where the SQLite file was copied first (if it was). */
  migration: MigrationReport & { backup?: string };
}

/**
 * Opens the history and brings its schema up to date. SQLite: WAL so that readers never block
 * the writer, a busy timeout so that concurrent writers wait, and a copy of an existing file
 * before it is migrated. PostgreSQL: `pg`, loaded only here, and one query first, so that a
 * server that does not answer is named (password masked) before anything else is tried.
 */
export async function openHistory(location: HistoryLocation): Promise<HistoryConnection> {
  return location.dialect === 'sqlite' ? openSqlite(location.file) : openPostgres(location);
}

async function openSqlite(file: string): Promise<HistoryConnection> {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const raw = openDatabase(file);
  const db = new Kysely<HistoryTables>({ dialect: new SqliteDialect({ database: raw }) });
  try {
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = NORMAL');
    raw.pragma('foreign_keys = ON');
    let backup: string | undefined;
    const before = async () => void (backup = backupOf(raw, file));
    const report = await migrateTakingTurns(() => migrateHistory(db, file, before));
    return { db, migration: { ...report, ...(backup ? { backup } : {}) } };
  } catch (err) {
    await db.destroy();
    if (isAwfError(err)) throw err;
    throw new AwfError(
      ErrorCodes.HISTORY_FAILED,
      `cannot use the run history ${file}: ${(err as Error).message}`,
      { file },
      'Move the file away to start a new history; `awf runs` reads it again once it is a valid database.',
      { cause: err },
    );
  }
}

/**
 * SQLite has no lock for the Migrator to take across processes: two first opens at once (a
 * worker and a run) may both start migrating; the one that loses (busy, or a version the other
 * recorded first) finds the work done when it tries again.
 */
async function migrateTakingTurns<T>(migrate: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await migrate();
    } catch (err) {
      if (isAwfError(err) || attempt >= attempts) throw err;
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 200 * attempt));
    }
  }
}

/** A consistent copy next to the file, made only when it already holds runs (a new file needs none). */
function backupOf(raw: Database, file: string): string | undefined {
  if (!raw.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'runs'`).get()) return undefined;
  const copy = `${file}.${new Date().toISOString().replace(/[:.]/g, '-')}.bak`;
  raw.prepare('VACUUM INTO ?').run(copy);
  return copy;
}

async function openPostgres(location: Extract<HistoryLocation, { dialect: 'postgres' }>): Promise<HistoryConnection> {
  const { Pool: PgPool } = require('pg') as typeof import('pg');
  const pool: Pool = new PgPool({ connectionString: location.url, max: 4, connectionTimeoutMillis: 5_000 });
  // An idle client whose server went away: the next query fails and says so; no crash in between.
  pool.on('error', () => undefined);
  const db = new Kysely<HistoryTables>({ dialect: new PostgresDialect({ pool }) });
  const hide = (text: string) => (location.password ? text.split(location.password).join('***') : text);
  try {
    await sql`select 1`.execute(db);
  } catch (err) {
    await db.destroy();
    throw new AwfError(
      ErrorCodes.HISTORY_UNREACHABLE,
      `cannot reach the run history at ${location.label}: ${hide(messageOf(err))}`,
      { history: location.label },
      'Start PostgreSQL or fix --history / AWF_HISTORY_URL (host, port, user, password, database).',
    );
  }
  try {
    return { db, migration: await migrateHistory(db, location.label) };
  } catch (err) {
    await db.destroy();
    if (isAwfError(err)) throw err;
    throw new AwfError(
      ErrorCodes.HISTORY_FAILED,
      `cannot migrate the run history at ${location.label}: ${hide(messageOf(err))}`,
      { history: location.label },
      'The database user needs to create tables in it; `awf history migrate` shows what is applied.',
    );
  }
}

function messageOf(err: unknown): string {
  if (err instanceof AggregateError) return err.errors.map(messageOf).join('; ');
  return err instanceof Error ? err.message || (err as NodeJS.ErrnoException).code || err.name : String(err);
}
