import type { Database } from './sqlite.loader';

/**
 * history.db, version 1. `IF NOT EXISTS` throughout: every process that opens the file may
 * be the first, and concurrent first opens must agree. A later version adds a migration
 * keyed on `PRAGMA user_version`, never an edit of these statements.
 */
export const HISTORY_SCHEMA = `
CREATE TABLE IF NOT EXISTS runs (
  run_id TEXT PRIMARY KEY,
  workflow TEXT NOT NULL,
  file TEXT,
  cwd TEXT,
  inputs TEXT NOT NULL DEFAULT '{}',
  status TEXT NOT NULL,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  duration_ms INTEGER,
  current_step TEXT,
  terminal TEXT,
  error_code TEXT,
  error_message TEXT,
  pid INTEGER
);
CREATE INDEX IF NOT EXISTS runs_by_start ON runs (started_at);
CREATE INDEX IF NOT EXISTS runs_by_workflow ON runs (workflow, started_at);
CREATE TABLE IF NOT EXISTS steps (
  run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  name TEXT NOT NULL,
  type TEXT NOT NULL,
  status TEXT NOT NULL,
  started_at TEXT NOT NULL,
  duration_ms INTEGER NOT NULL,
  exit_code INTEGER NOT NULL,
  tool_calls INTEGER NOT NULL,
  state TEXT NOT NULL,
  next TEXT,
  error_code TEXT,
  error_message TEXT,
  PRIMARY KEY (run_id, seq)
);
CREATE TABLE IF NOT EXISTS tool_calls (
  run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
  step_seq INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  tool TEXT NOT NULL,
  source TEXT NOT NULL,
  status TEXT NOT NULL,
  start TEXT NOT NULL,
  duration_ms REAL NOT NULL,
  error TEXT,
  PRIMARY KEY (run_id, step_seq, seq)
);
PRAGMA user_version = 1;
`;

/**
 * Version 2: each tool call keeps its whole audit event (`event`, JSON: its argument shape and
 * policy decision too), so that `awf runs show` reads the database, not the run directory.
 * Rows of version 1 have none and show what their columns hold.
 */
export const HISTORY_VERSION = 2;
export const ADD_EVENT_COLUMN = 'ALTER TABLE tool_calls ADD COLUMN event TEXT';

/**
 * Brings the file to HISTORY_VERSION in one IMMEDIATE transaction, so that concurrent first
 * opens take turns and the second finds the work done. The column check also covers a file
 * that an older awf, which re-applies version 1, has opened since.
 */
export function migrate(db: Database): void {
  if (Number(db.pragma('user_version', { simple: true })) >= HISTORY_VERSION) return;
  db.transaction(() => {
    db.exec(HISTORY_SCHEMA);
    const columns = db.prepare('PRAGMA table_info(tool_calls)').all() as { name: string }[];
    if (!columns.some((c) => c.name === 'event')) db.exec(ADD_EVENT_COLUMN);
    db.pragma(`user_version = ${HISTORY_VERSION}`);
  }).immediate();
}
