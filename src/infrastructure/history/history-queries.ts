import type { ExpressionBuilder, Kysely, SelectQueryBuilder } from 'kysely';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { RunQuery, RunStats } from '../../domain/ports/run-index.port';
import { notFound, type Row, summary } from './history-rows';
import type { HistoryTables, RunsTable } from './history.tables';

// KyselyRunIndex's longer queries and the pieces its queries share; types only from kysely,
// so that nothing loads it before the history is opened.

type From = HistoryTables & { r: RunsTable };
type RunsQuery<O> = SelectQueryBuilder<From, 'r', O>;

/** The filters of a query but its page (`after`, `limit`); `interrupted` is a `running` row, told apart later. */
export function filtered<O>(query: RunsQuery<O>, q: RunQuery): RunsQuery<O> {
  let w = query;
  if (q.workflow) w = w.where('r.workflow', '=', q.workflow);
  if (q.status) w = w.where('r.status', '=', q.status === 'interrupted' ? 'running' : q.status);
  if (q.since) w = w.where('r.started_at', '>=', q.since);
  if (q.until) w = w.where('r.started_at', '<', q.until);
  return w;
}

export function stepCount(eb: ExpressionBuilder<From, 'r'>) {
  return eb
    .selectFrom('steps as s')
    .whereRef('s.run_id', '=', 'r.run_id')
    .select((e) => e.fn.countAll<number>().as('n'));
}

/** `SET col = excluded.col` for each column: an upsert that replaces the row, in both dialects. */
export function excluded<DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>, columns: string[]) {
  return Object.fromEntries(columns.map((c) => [c, eb.ref(`excluded.${c}` as never)])) as never;
}

const ID_PREFIX = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Counts by outcome; a run marked running whose process is gone was killed: a failure, as `list` shows it. */
export async function runStats(db: Kysely<HistoryTables>, q: Omit<RunQuery, 'after' | 'limit'>): Promise<RunStats> {
  const done = await filtered(db.selectFrom('runs as r'), q)
    .where('r.status', '!=', 'running')
    .select((eb) => {
      const count = (status: string) => eb.fn.count<number>(eb.case().when('r.status', '=', status).then(1).end());
      return [
        eb.fn.countAll<number>().as('total'),
        count('success').as('success'),
        count('failure').as('failure'),
        count('cancelled').as('cancelled'),
        eb.fn.coalesce(eb.fn.avg<number>('r.duration_ms'), eb.lit(0)).as('avg'),
      ];
    })
    .executeTakeFirstOrThrow();
  const open = await filtered(db.selectFrom('runs as r'), q).where('r.status', '=', 'running').selectAll().execute();
  const interrupted =
    q.status === 'running' ? 0 : (open as Row[]).map(summary).filter((r) => r.status === 'interrupted').length;
  return {
    total: Number(done.total) + interrupted,
    success: Number(done.success),
    failure: Number(done.failure) + interrupted,
    cancelled: Number(done.cancelled),
    avg_duration_ms: Math.round(Number(done.avg)),
  };
}

/** A whole run id, or the one run whose id starts with the prefix. */
export async function resolveRunId(db: Kysely<HistoryTables>, idOrPrefix: string): Promise<string> {
  // ID_PREFIX leaves nothing that needs quoting; substr compares the same way in both dialects.
  if (!ID_PREFIX.test(idOrPrefix)) throw notFound(idOrPrefix);
  const rows = await db
    .selectFrom('runs')
    .select('run_id')
    .where((eb) => eb(eb.fn<string>('substr', ['run_id', eb.lit(1), eb.lit(idOrPrefix.length)]), '=', idOrPrefix))
    .orderBy('started_at', 'desc')
    .limit(6)
    .execute();
  const ids = rows.map((r) => r.run_id);
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
