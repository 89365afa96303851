import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { HistoryTables } from './history.tables';

/**
 * The history's schema, one version at a time, for SQLite and PostgreSQL alike. A new version
 * is a new entry here, never an edit of one that has shipped. `IF NOT EXISTS` and the column
 * checks let the first migrations adopt a history.db that an awf from before Kysely made
 * (its `PRAGMA user_version` 1 or 2): they find their work done and are only recorded.
 */
export const HISTORY_MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_runs': {
    async up(db) {
      await db.schema
        .createTable('runs')
        .ifNotExists()
        .addColumn('run_id', 'text', (c) => c.primaryKey())
        .addColumn('workflow', 'text', (c) => c.notNull())
        .addColumn('file', 'text')
        .addColumn('cwd', 'text')
        .addColumn('inputs', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .addColumn('duration_ms', 'integer')
        .addColumn('current_step', 'text')
        .addColumn('terminal', 'text')
        .addColumn('error_code', 'text')
        .addColumn('error_message', 'text')
        .addColumn('pid', 'integer')
        .execute();
      await db.schema.createIndex('runs_by_start').ifNotExists().on('runs').column('started_at').execute();
      await db.schema
        .createIndex('runs_by_workflow')
        .ifNotExists()
        .on('runs')
        .columns(['workflow', 'started_at'])
        .execute();
      await db.schema
        .createTable('steps')
        .ifNotExists()
        .addColumn('run_id', 'text', (c) => c.notNull().references('runs.run_id').onDelete('cascade'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('exit_code', 'integer', (c) => c.notNull())
        .addColumn('tool_calls', 'integer', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('next', 'text')
        .addColumn('error_code', 'text')
        .addColumn('error_message', 'text')
        .addPrimaryKeyConstraint('steps_pk', ['run_id', 'seq'])
        .execute();
      await db.schema
        .createTable('tool_calls')
        .ifNotExists()
        .addColumn('run_id', 'text', (c) => c.notNull().references('runs.run_id').onDelete('cascade'))
        .addColumn('step_seq', 'integer', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('tool', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('start', 'text', (c) => c.notNull())
        .addColumn('duration_ms', 'double precision', (c) => c.notNull())
        .addColumn('error', 'text')
        .addPrimaryKeyConstraint('tool_calls_pk', ['run_id', 'step_seq', 'seq'])
        .execute();
    },
  },
  // Each tool call keeps its whole audit event, so `awf runs show` reads the history, not the run's directory.
  '0002_tool_call_event': { up: (db) => addColumn(db, 'tool_calls', 'event') },
  // A shared history holds runs of many machines: a run's pid says whether it was killed only on its host.
  '0003_run_host': { up: (db) => addColumn(db, 'runs', 'host') },
};

/** Adds a text column unless an older awf's schema already has it. */
async function addColumn(db: Kysely<unknown>, table: string, column: string): Promise<void> {
  const tables = await db.introspection.getTables();
  if (tables.find((t) => t.name === table)?.columns.some((c) => c.name === column)) return;
  await db.schema.alterTable(table).addColumn(column, 'text').execute();
}

const provider: MigrationProvider = { getMigrations: () => Promise.resolve({ ...HISTORY_MIGRATIONS }) };
const TABLE = 'awf_migration';

export interface MigrationReport {
  /** The versions applied now, in order (none: the history was up to date). */
  applied: string[];
  /** The history's version after this: the last migration it has. */
  version: string;
}

/**
 * Applies the versions the history lacks; `beforeApplying` runs first when there are any (the
 * SQLite backup). A history with versions this awf does not know was migrated by a newer awf:
 * refused, since writing to it with an older schema in mind could lose what that awf keeps.
 */
export async function migrateHistory(
  db: Kysely<HistoryTables>,
  label: string,
  beforeApplying?: (pending: string[]) => Promise<void>,
): Promise<MigrationReport> {
  const known = Object.keys(HISTORY_MIGRATIONS);
  const done = await executed(db);
  const unknown = done.filter((name) => !known.includes(name));
  if (unknown.length) {
    throw new AwfError(
      ErrorCodes.HISTORY_TOO_NEW,
      `the run history ${label} has schema version ${unknown.at(-1)}, newer than this awf knows (${known.at(-1)})`,
      { history: label, versions: unknown },
      'Upgrade awf to the version the other machines use (`npm install -g awf@latest`); this one must not write to it.',
    );
  }
  const pending = known.filter((name) => !done.includes(name));
  if (!pending.length) return { applied: [], version: known.at(-1)! };
  await beforeApplying?.(pending);
  const migrator = new Migrator({ db, provider, migrationTableName: TABLE, migrationLockTableName: `${TABLE}_lock` });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) throw error;
  return { applied: results.filter((r) => r.status === 'Success').map((r) => r.migrationName), version: known.at(-1)! };
}

/** The versions the history records as applied; none in a new database or an awf-before-Kysely file. */
async function executed(db: Kysely<HistoryTables>): Promise<string[]> {
  const tables = await db.introspection.getTables();
  if (!tables.some((t) => t.name === TABLE)) return [];
  const { rows } = await sql<{ name: string }>`select name from ${sql.table(TABLE)} order by name`.execute(db);
  return rows.map((r) => r.name);
}
