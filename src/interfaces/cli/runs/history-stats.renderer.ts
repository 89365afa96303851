import type { RunSummary } from '../../../domain/ports/run-index.port';
import { jsonLine, type OutputFormat } from '../global-flags';

/** AWF's `history --stats` figures, under its JSON names. */
export interface HistoryStats {
  total_executions: number;
  success_count: number;
  failed_count: number;
  cancelled_count: number;
  avg_duration_ms: number;
}

/**
 * As AWF's code counts them: over the runs the filters and `--limit` select (so 20 by default),
 * running ones included in the total and the mean (their duration so far counts as 0); an
 * interrupted run (its process is gone) counts as failed.
 */
export function historyStats(runs: readonly RunSummary[]): HistoryStats {
  const count = (...statuses: string[]) => runs.filter((r) => statuses.includes(r.status)).length;
  const total = runs.reduce((sum, r) => sum + (r.duration_ms ?? 0), 0);
  return {
    total_executions: runs.length,
    success_count: count('success'),
    failed_count: count('failure', 'interrupted'),
    cancelled_count: count('cancelled'),
    avg_duration_ms: runs.length ? Math.floor(total / runs.length) : 0,
  };
}

/** AWF's text block (every format but json). */
export function renderHistoryStats(stats: HistoryStats, format: OutputFormat): string {
  if (format === 'json') return jsonLine({ ...stats });
  return [
    'Execution Statistics',
    '====================',
    `Total Executions: ${stats.total_executions}`,
    `Success: ${stats.success_count}`,
    `Failed: ${stats.failed_count}`,
    `Cancelled: ${stats.cancelled_count}`,
    ...(stats.total_executions > 0 ? [`Average Duration: ${stats.avg_duration_ms}ms`] : []),
    '',
  ].join('\n');
}
