import type { RunSummary } from '../../../domain/ports/run-index.port';
import { historyStats, renderHistoryStats } from './history-stats.renderer';

const run = (status: RunSummary['status'], duration_ms?: number): RunSummary => ({
  run_id: `r-${status}-${duration_ms}`,
  workflow: 'w',
  file: 'w.yaml',
  cwd: '/',
  status,
  started_at: '2026-01-01T00:00:00.000Z',
  steps: 1,
  ...(duration_ms === undefined ? {} : { duration_ms }),
});

describe('history --stats', () => {
  it("counts as AWF's code does: every run selected in the total and the mean, an interrupted one as failed", () => {
    const stats = historyStats([
      run('success', 100),
      run('failure', 50),
      run('interrupted'),
      run('cancelled', 30),
      run('running'),
    ]);
    expect(stats).toEqual({
      total_executions: 5,
      success_count: 1,
      failed_count: 2,
      cancelled_count: 1,
      avg_duration_ms: 36,
    });
  });

  it("prints AWF's block, without the mean when there is no run; -f json gives its field names", () => {
    expect(renderHistoryStats(historyStats([]), 'text')).toBe(
      'Execution Statistics\n====================\nTotal Executions: 0\nSuccess: 0\nFailed: 0\nCancelled: 0\n',
    );
    expect(renderHistoryStats(historyStats([run('success', 7)]), 'table')).toContain('Average Duration: 7ms\n');
    expect(JSON.parse(renderHistoryStats(historyStats([run('success', 7)]), 'json'))).toMatchObject({
      total_executions: 1,
      success_count: 1,
      avg_duration_ms: 7,
    });
  });
});
