import type { RunDetail } from '../../domain/ports/run-index.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import type { NewRunEvent, RunEvent } from './run-event-log';

const STEP_OUTCOME: Readonly<Record<string, string>> = {
  success: 'completed',
  failure: 'failed',
  cancelled: 'cancelled',
};

/**
 * A run this process did not start (an `awf run`, or a run from before a restart), told as
 * events from what the history holds: its start, each recorded step, and its end once it has
 * one. The numbering depends only on the record, so it is the same at every read and a
 * follower can send only what is new. A run whose process is gone ends as `interrupted`.
 */
export function historyEvents(run: RunDetail, masker: SecretMasker): RunEvent[] {
  const events: NewRunEvent[] = [{ kind: 'run.started', status: 'running' }];
  for (const s of run.step_records) {
    const status = STEP_OUTCOME[s.status] ?? s.status;
    const error = s.error ? { error: masker.mask(s.error.message) } : {};
    events.push({ kind: 'step.started', step: s.name, status: 'running' });
    events.push({ kind: s.status === 'success' ? 'step.completed' : 'step.failed', step: s.name, status, ...error });
  }
  if (run.status === 'success') {
    events.push({ kind: 'run.completed', status: 'completed' }, { kind: 'workflow.completed', status: 'completed' });
  } else if (run.status !== 'running') {
    const cancelled = run.status === 'cancelled';
    const error = cancelled ? 'cancelled' : masker.mask(run.error?.message ?? run.status);
    events.push(
      { kind: 'run.completed', status: cancelled ? 'cancelled' : 'failed' },
      { kind: 'workflow.failed', status: cancelled ? 'cancelled' : 'failed', error },
    );
  }
  return events.map(({ kind, ...rest }, i) => ({ kind, run_id: run.run_id, seq: i + 1, ...rest }));
}
