import { rmSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { ToolCallEvent } from '../../domain/model/tool-call-event';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import type {
  HistoryMigration,
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
import { notFound, type Row, stepRecord, stepRow, summary, toolCall, toolCallRow } from './history-rows';
import { excluded, filtered, resolveRunId, runStats, stepCount } from './history-queries';
import type { HistoryLocation } from './history-location';
import { LazyHistory } from './lazy-history';
import type { HistoryTables } from './history.tables';

/** Tool calls per INSERT: well under SQLite's limit of bound values in one statement. */
const CALLS_PER_INSERT = 500;

type Db = Kysely<HistoryTables>;

/**
 * The run history through Kysely: SQLite's `<storage>/history.db` or a shared PostgreSQL
 * database, one set of queries for both. Opened (and migrated) on first use; each write is one
 * statement or one transaction, so a killed `awf run` leaves whole rows only.
 */
export class KyselyRunIndex implements RunIndex {
  private readonly history: LazyHistory;

  constructor(
    private readonly location: () => HistoryLocation,
    private readonly readEvents: (path: string) => ToolCallEvent[],
    private readonly runDir: (runId: string) => string,
    private readonly logger?: AppLogger,
  ) {
    this.history = new LazyHistory(location, logger);
  }

  async begin(run: RunStart): Promise<void> {
    const owner = { pid: process.pid, host: hostname() };
    await (
      await this.db()
    )
      .insertInto('runs')
      .values({ ...run, inputs: JSON.stringify(run.inputs), status: 'running', ...owner })
      .onConflict((oc) =>
        oc.column('run_id').doUpdateSet({
          status: 'running',
          ...owner,
          finished_at: null,
          error_code: null,
          error_message: null,
          terminal: null,
        }),
      )
      .execute();
  }

  async stepStarted(runId: string, step: string): Promise<void> {
    await (await this.db()).updateTable('runs').set({ current_step: step }).where('run_id', '=', runId).execute();
  }

  async stepFinished(runId: string, step: StepRecord, eventsPath?: string): Promise<void> {
    const events = eventsPath ? this.readEvents(eventsPath) : [];
    const row = stepRow(runId, step);
    const calls = events.map((e, i) => toolCallRow(runId, step.seq, i, e));
    await (await this.db()).transaction().execute(async (tx) => {
      await tx
        .insertInto('steps')
        .values(row)
        .onConflict((oc) => oc.columns(['run_id', 'seq']).doUpdateSet((eb) => excluded(eb, Object.keys(row))))
        .execute();
      for (let i = 0; i < calls.length; i += CALLS_PER_INSERT)
        await tx
          .insertInto('tool_calls')
          .values(calls.slice(i, i + CALLS_PER_INSERT))
          .onConflict((oc) =>
            oc.columns(['run_id', 'step_seq', 'seq']).doUpdateSet((eb) => excluded(eb, Object.keys(calls[0]))),
          )
          .execute();
      await tx
        .updateTable('runs')
        .set({ current_step: step.next ?? step.name })
        .where('run_id', '=', runId)
        .execute();
    });
    this.logger?.debug(
      { run_id: runId, step: step.name, seq: step.seq, tool_calls: events.length },
      'run history: step recorded',
    );
  }

  async finish(runId: string, o: RunOutcome): Promise<void> {
    await (
      await this.db()
    )
      .updateTable('runs')
      .set({
        status: o.status,
        finished_at: o.finished_at,
        duration_ms: Math.round(o.duration_ms),
        terminal: o.terminal ?? null,
        error_code: o.error?.code ?? null,
        error_message: o.error?.message ?? null,
      })
      .where('run_id', '=', runId)
      .execute();
  }

  async list(q: RunQuery): Promise<RunSummary[]> {
    let query = filtered((await this.db()).selectFrom('runs as r'), q)
      .selectAll('r')
      .select((eb) => stepCount(eb).as('step_count'));
    const after = q.after;
    if (after)
      query = query.where((eb) =>
        eb.or([
          eb('r.started_at', '<', after.started_at),
          eb.and([eb('r.started_at', '=', after.started_at), eb('r.run_id', '<', after.run_id)]),
        ]),
      );
    const rows = await query
      .orderBy('r.started_at', 'desc')
      .orderBy('r.run_id', 'desc')
      .limit(q.limit ?? 20)
      .execute();
    const runs = (rows as Row[]).map(summary);
    return q.status ? runs.filter((r) => r.status === q.status) : runs;
  }

  async stats(q: Omit<RunQuery, 'after' | 'limit'>): Promise<RunStats> {
    return runStats(await this.db(), q);
  }

  async resolve(idOrPrefix: string): Promise<string> {
    return resolveRunId(await this.db(), idOrPrefix);
  }

  async get(runId: string): Promise<RunDetail> {
    const db = await this.db();
    const row = await db
      .selectFrom('runs as r')
      .selectAll('r')
      .select((eb) => stepCount(eb).as('step_count'))
      .where('r.run_id', '=', runId)
      .executeTakeFirst();
    if (!row) throw notFound(runId);
    const steps = await db.selectFrom('steps').selectAll().where('run_id', '=', runId).orderBy('seq').execute();
    return {
      ...summary(row as Row),
      inputs: JSON.parse(row.inputs) as Record<string, string>,
      step_records: (steps as Row[]).map(stepRecord),
    };
  }

  async toolCalls(runId: string): Promise<StepToolCalls[]> {
    const rows = await (
      await this.db()
    )
      .selectFrom('tool_calls as c')
      .innerJoin('steps as s', (join) => join.onRef('s.run_id', '=', 'c.run_id').onRef('s.seq', '=', 'c.step_seq'))
      .selectAll('c')
      .select(['s.name as step'])
      .where('c.run_id', '=', runId)
      .orderBy('c.step_seq')
      .orderBy('c.seq')
      .execute();
    const steps: StepToolCalls[] = [];
    for (const r of rows) {
      if (steps.at(-1)?.seq !== Number(r.step_seq)) steps.push({ step: r.step, seq: Number(r.step_seq), events: [] });
      steps.at(-1)!.events.push(toolCall(r as Row));
    }
    return steps;
  }

  async prune(before: string): Promise<string[]> {
    const rows = await (
      await this.db()
    )
      .deleteFrom('runs')
      .where('started_at', '<', before)
      .where('status', '!=', 'running')
      .returning('run_id')
      .execute();
    const ids = rows.map((r) => r.run_id);
    for (const id of ids) rmSync(this.runDir(id), { recursive: true, force: true });
    return ids;
  }

  async migrate(): Promise<HistoryMigration> {
    const { migration } = await this.history.open();
    return { history: this.location().label, ...migration };
  }

  close(): Promise<void> {
    return this.history.close();
  }

  private async db(): Promise<Db> {
    return (await this.history.open()).db;
  }
}
