import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { ToolCallEvent } from '../../domain/model/tool-call-event';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import type {
  RunDetail,
  RunIndex,
  RunOutcome,
  RunQuery,
  RunStart,
  RunStats,
  RunSummary,
  StepRecord,
  StepToolCalls,
} from '../../domain/ports/run-index.port';
import { notFound, type Row, stepRecord, summary, toolCall } from './history-rows';
import { migrate } from './history.schema';
import { type Database, openDatabase } from './sqlite.loader';

const ID_PREFIX = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * The run history in one SQLite file shared by every `awf run` on the machine: WAL so that
 * readers never block the writer, a busy timeout so that concurrent writers wait instead of
 * failing, and one transaction per write so that a kill leaves whole rows only.
 */
export class SqliteRunIndex implements RunIndex {
  private db?: Database;

  constructor(
    private readonly file: () => string,
    private readonly readEvents: (path: string) => ToolCallEvent[],
    private readonly runDir: (runId: string) => string,
    private readonly logger?: AppLogger,
  ) {}

  begin(run: RunStart): void {
    this.open()
      .prepare(
        `INSERT INTO runs (run_id, workflow, file, cwd, inputs, status, started_at, pid) VALUES (?, ?, ?, ?, ?, 'running', ?, ?)
      ON CONFLICT(run_id) DO UPDATE SET status = 'running', pid = excluded.pid, finished_at = NULL, error_code = NULL, error_message = NULL, terminal = NULL`,
      )
      .run(run.run_id, run.workflow, run.file, run.cwd, JSON.stringify(run.inputs), run.started_at, process.pid);
  }

  stepStarted(runId: string, step: string): void {
    this.open().prepare('UPDATE runs SET current_step = ? WHERE run_id = ?').run(step, runId);
  }

  stepFinished(runId: string, step: StepRecord, eventsPath?: string): void {
    const db = this.open();
    const events = eventsPath ? this.readEvents(eventsPath) : [];
    db.transaction(() => {
      db.prepare(
        `INSERT OR REPLACE INTO steps (run_id, seq, name, type, status, started_at, duration_ms, exit_code, tool_calls, state, next, error_code, error_message)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        runId,
        step.seq,
        step.name,
        step.type,
        step.status,
        step.started_at,
        Math.round(step.duration_ms),
        step.exit_code,
        step.tool_calls,
        JSON.stringify(step.state),
        step.next ?? null,
        step.error?.code ?? null,
        step.error?.message ?? null,
      );
      const call = db.prepare(
        `INSERT OR REPLACE INTO tool_calls (run_id, step_seq, seq, tool, source, status, start, duration_ms, error, event)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      events.forEach((e, i) =>
        call.run(
          runId,
          step.seq,
          i,
          e.tool,
          e.source,
          e.status,
          e.start,
          e.duration_ms,
          e.error ?? null,
          JSON.stringify(e),
        ),
      );
      db.prepare('UPDATE runs SET current_step = ? WHERE run_id = ?').run(step.next ?? step.name, runId);
    })();
    this.logger?.debug(
      { run_id: runId, step: step.name, seq: step.seq, tool_calls: events.length },
      'run history: step recorded',
    );
  }

  finish(runId: string, o: RunOutcome): void {
    this.open()
      .prepare(
        `UPDATE runs SET status = ?, finished_at = ?, duration_ms = ?, terminal = ?, error_code = ?, error_message = ? WHERE run_id = ?`,
      )
      .run(
        o.status,
        o.finished_at,
        Math.round(o.duration_ms),
        o.terminal ?? null,
        o.error?.code ?? null,
        o.error?.message ?? null,
        runId,
      );
  }

  list(q: RunQuery): RunSummary[] {
    const { where, args } = filters(q);
    if (q.after) {
      where.push('(started_at < ? OR (started_at = ? AND run_id < ?))');
      args.push(q.after.started_at, q.after.started_at, q.after.run_id);
    }
    const sql = `SELECT r.*, (SELECT COUNT(*) FROM steps s WHERE s.run_id = r.run_id) AS step_count FROM runs r
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY started_at DESC, run_id DESC LIMIT ?`;
    const rows = this.open()
      .prepare(sql)
      .all(...args, q.limit ?? 20) as Row[];
    const runs = rows.map(summary);
    return q.status ? runs.filter((r) => r.status === q.status) : runs;
  }

  stats(q: Omit<RunQuery, 'after' | 'limit'>): RunStats {
    const { where, args } = filters(q);
    const db = this.open();
    const clause = (extra: string) => `WHERE ${[...where, extra].join(' AND ')}`;
    const done = db
      .prepare(
        `SELECT COUNT(*) AS total, COALESCE(SUM(status = 'success'), 0) AS success, COALESCE(SUM(status = 'failure'), 0) AS failure,
        COALESCE(SUM(status = 'cancelled'), 0) AS cancelled, COALESCE(AVG(duration_ms), 0) AS avg FROM runs ${clause("status != 'running'")}`,
      )
      .get(...args) as Row;
    // A run marked running whose process is gone was killed: it counts as a failure (as `list` shows it).
    const open = (db.prepare(`SELECT * FROM runs ${clause("status = 'running'")}`).all(...args) as Row[]).map(summary);
    const interrupted = q.status === 'running' ? 0 : open.filter((r) => r.status === 'interrupted').length;
    return {
      total: Number(done.total) + interrupted,
      success: Number(done.success),
      failure: Number(done.failure) + interrupted,
      cancelled: Number(done.cancelled),
      avg_duration_ms: Math.round(Number(done.avg)),
    };
  }

  resolve(idOrPrefix: string): string {
    if (!ID_PREFIX.test(idOrPrefix)) throw notFound(idOrPrefix);
    const escaped = idOrPrefix.replace(/[\\%_]/g, (c) => `\\${c}`);
    const rows = this.open()
      .prepare(`SELECT run_id FROM runs WHERE run_id LIKE ? ESCAPE '\\' ORDER BY started_at DESC LIMIT 6`)
      .all(`${escaped}%`) as Row[];
    const ids = rows.map((r) => String(r.run_id));
    if (ids.includes(idOrPrefix)) return idOrPrefix;
    if (ids.length === 1) return ids[0];
    if (ids.length === 0) throw notFound(idOrPrefix);
    throw new AwfError(
      ErrorCodes.RUN_AMBIGUOUS_ID,
      `"${idOrPrefix}" matches more than one run: ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''}`,
      { prefix: idOrPrefix, matches: ids.slice(0, 5) },
      'Give more characters of the run id.',
    );
  }

  get(runId: string): RunDetail {
    const db = this.open();
    const row = db
      .prepare(
        'SELECT r.*, (SELECT COUNT(*) FROM steps s WHERE s.run_id = r.run_id) AS step_count FROM runs r WHERE run_id = ?',
      )
      .get(runId) as Row | undefined;
    if (!row) throw notFound(runId);
    const steps = (db.prepare('SELECT * FROM steps WHERE run_id = ? ORDER BY seq').all(runId) as Row[]).map(stepRecord);
    return { ...summary(row), inputs: JSON.parse(String(row.inputs)) as Record<string, string>, step_records: steps };
  }

  toolCalls(runId: string): StepToolCalls[] {
    const rows = this.open()
      .prepare(
        `SELECT s.seq AS step_seq, s.name AS step, c.* FROM tool_calls c
        JOIN steps s ON s.run_id = c.run_id AND s.seq = c.step_seq WHERE c.run_id = ? ORDER BY c.step_seq, c.seq`,
      )
      .all(runId) as Row[];
    const steps: StepToolCalls[] = [];
    for (const r of rows) {
      if (steps.at(-1)?.seq !== Number(r.step_seq))
        steps.push({ step: String(r.step), seq: Number(r.step_seq), events: [] });
      steps.at(-1)!.events.push(toolCall(r));
    }
    return steps;
  }

  prune(before: string): string[] {
    const db = this.open();
    const ids = db.transaction(() => {
      const found = (
        db.prepare(`SELECT run_id FROM runs WHERE started_at < ? AND status != 'running'`).all(before) as Row[]
      ).map((r) => String(r.run_id));
      const del = db.prepare('DELETE FROM runs WHERE run_id = ?');
      found.forEach((id) => del.run(id));
      return found;
    })();
    for (const id of ids) rmSync(this.runDir(id), { recursive: true, force: true });
    return ids;
  }

  close(): void {
    this.db?.close();
    this.db = undefined;
  }

  private open(): Database {
    if (this.db) return this.db;
    const file = this.file();
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const db = openDatabase(file);
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      migrate(db);
    } catch (err) {
      db.close();
      throw new AwfError(
        ErrorCodes.HISTORY_FAILED,
        `cannot use the run history ${file}: ${(err as Error).message}`,
        { file },
        'Move the file away to start a new history; `awf runs` reads it again once it is a valid database.',
        { cause: err },
      );
    }
    this.db = db;
    this.logger?.debug({ file }, 'run history opened');
    return db;
  }
}

/** The WHERE terms of a query but its page (`after`, `limit`); `interrupted` is a `running` row, told apart later. */
function filters(q: RunQuery): { where: string[]; args: unknown[] } {
  const where: string[] = [];
  const args: unknown[] = [];
  if (q.workflow) where.push('workflow = ?') && args.push(q.workflow);
  if (q.status) where.push('status = ?') && args.push(q.status === 'interrupted' ? 'running' : q.status);
  if (q.since) where.push('started_at >= ?') && args.push(q.since);
  if (q.until) where.push('started_at < ?') && args.push(q.until);
  return { where, args };
}

export function historyFile(storage: string): string {
  return join(storage, 'history.db');
}
