import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely';
import type { RunQuery } from '../../domain/ports/run-index.port';
import type { HistoryTables, RunsTable } from './history.tables';

// The pieces of KyselyRunIndex's queries that more than one query shares; types only from kysely,
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
