import type { RunDetail } from '../../../domain/ports/run-index.port';
import type { HistoryReader } from '../history/history.reader';
import type { RunViewStore } from './run-view.store';

/** What the watch needs of TuiRuns: which runs it already shows, and a way to show a new one. */
export interface RunsShown {
  /** Runs found elsewhere earlier and not yet ended: followed again by a new watch. */
  unfinished(): RunViewStore[];
  /** True when a run with this id is shown already, or a launch from the tui has no id yet. */
  knows(runId: string): boolean;
  /** A store for a run found in the history; Monitoring may show it. */
  adopt(runId: string, workflow: string): RunViewStore;
}

const LISTED = 20;

/**
 * Runs the tui did not launch (an `awf run` in another terminal, `awf serve`, a worker), found
 * running in the shared history and followed from it until they end: each look lists the running
 * runs, adopts the new ones, and reads each one followed again, feeding its newly recorded steps
 * to its store as a run's observer would (outcomes only: no output or error text, which the
 * history keeps unmasked). Beyond AWF, whose Monitoring shows only the run it launched. A
 * history that cannot be read is tried again at the next look. Returns the stop.
 */
export function watchHistoryRuns(history: HistoryReader, shown: RunsShown, everyMs: number): () => void {
  const followed = new Map<string, { store: RunViewStore; applied: number }>();
  for (const store of shown.unfinished())
    if (store.runId) followed.set(store.runId, { store, applied: store.elsewhere?.seq ?? -1 });
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const look = async (): Promise<void> => {
    try {
      for (const run of await history.list({ status: 'running', limit: LISTED }))
        if (run.status === 'running' && !followed.has(run.run_id) && !shown.knows(run.run_id))
          followed.set(run.run_id, { store: shown.adopt(run.run_id, run.workflow), applied: -1 });
      for (const [runId, f] of followed) {
        if (stopped) return;
        f.applied = feed(f.store, await history.detail(runId), f.applied);
        if (f.store.status !== 'running') followed.delete(runId);
      }
    } catch {
      // Unreadable now (a locked or pruned run, a database away): the next look tries again.
    }
    if (!stopped) timer = setTimeout(() => void look(), everyMs);
  };
  timer = setTimeout(() => void look(), 0);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** Feeds the steps recorded after `applied` (their seq, from 0), then the run's end; returns the last seq fed. */
function feed(store: RunViewStore, run: RunDetail, applied: number): number {
  let last = applied;
  for (const record of run.step_records) {
    if (record.seq <= last) continue;
    store.stepStarted(record.name, record.type);
    store.elsewhere = { ...store.elsewhere, seq: record.seq };
    // The history keeps a step's output and error as the run saw them; only the process that ran
    // it knows its secrets, so no text of it is drawn here: names and outcomes only.
    store.stepFinished({ ...record, output: '', error: undefined });
    last = record.seq;
  }
  if (run.status === 'running') {
    store.movedTo(run.current_step);
    return last;
  }
  store.movedTo(undefined);
  if (run.status === 'interrupted')
    store.finished({
      status: 'failure',
      error: { message: 'its process is gone (interrupted); `awf resume` continues it' },
    });
  else store.finished({ status: run.status });
  return last;
}
