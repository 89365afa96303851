import type { RunDetail, RunIndex, RunQuery, RunSummary } from '../../../domain/ports/run-index.port';

/**
 * The History tab's one way into the run history, the same index `awf history` and
 * `awf runs show` read. Asynchronous on purpose: a history kept in a database server answers
 * later, and only this file would change.
 */
export interface HistoryReader {
  list(query: RunQuery): Promise<RunSummary[]>;
  detail(runId: string): Promise<RunDetail>;
}

export function historyReader(index: Pick<RunIndex, 'list' | 'get'>): HistoryReader {
  return {
    list: async (query) => index.list(query),
    detail: async (runId) => index.get(runId),
  };
}
