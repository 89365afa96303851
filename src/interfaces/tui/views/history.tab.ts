import { createElement as h, useEffect, useState } from 'react';
import type { RunSummary } from '../../../domain/ports/run-index.port';
import { ink } from '../ink.loader';
import type { TabProps } from '../tui-services';
import { RunDetailView } from './run-detail.view';
import { FilterLine } from './filter-line.view';
import { duration, messageOf, startedAt, STATUS_COLOR } from './format';
import { windowOf } from './window';

/** AWF's status filter, cycled by tab: all runs, the successful ones, the failed ones. */
const CYCLE = ['all', 'success', 'failed'] as const;
const FAILED = new Set(['failure', 'interrupted', 'cancelled']);
/** How many runs the tab reads, newest first. */
const LIMIT = 500;

/**
 * AWF's History tab: past runs from the run history (the index `awf history` reads), newest
 * first; `/` filters by workflow name, tab cycles the status filter, enter opens a run.
 */
export function HistoryTab({ services, active, capture, rows }: TabProps) {
  const { Box, Text, useInput } = ink();
  const [runs, setRuns] = useState<RunSummary[]>();
  const [problem, setProblem] = useState<string>();
  const [filter, setFilter] = useState('');
  const [filtering, setFiltering] = useState(false);
  const [status, setStatus] = useState(0);
  const [selected, setSelected] = useState(0);
  const [open, setOpen] = useState<string>();

  // Read again each time the tab comes on screen: runs launched meanwhile are listed.
  useEffect(() => {
    if (active)
      services.history.list({ limit: LIMIT }).then(setRuns, (e: unknown) => setProblem(messageOf(e, services.mask)));
  }, [active, services]);
  useEffect(() => {
    capture(filtering);
  }, [filtering, active]);

  const needle = filter.toLowerCase();
  const shown = (runs ?? []).filter(
    (r) =>
      r.workflow.toLowerCase().includes(needle) &&
      (CYCLE[status] === 'all' || (CYCLE[status] === 'success' ? r.status === 'success' : FAILED.has(r.status))),
  );
  const at = Math.max(0, Math.min(selected, shown.length - 1));
  useInput(
    (input, key) => {
      if (key.upArrow || input === 'k') setSelected(Math.max(0, at - 1));
      else if (key.downArrow || input === 'j') setSelected(Math.min(shown.length - 1, at + 1));
      else if (input === '/') setFiltering(true);
      else if (key.tab) {
        setStatus((s) => (s + 1) % CYCLE.length);
        setSelected(0);
      } else if (key.return && shown[at]) setOpen(shown[at].run_id);
    },
    { isActive: active && !filtering && !open },
  );

  if (open) return h(RunDetailView, { services, runId: open, active, onBack: () => setOpen(undefined) });
  if (problem) return h(Text, { color: 'red' }, problem);
  if (!runs) return h(Text, { dimColor: true }, 'Loading history…');
  const badges = CYCLE.map((c, i) => h(Text, { key: c, inverse: i === status }, ` ${BADGE[c]} `));
  const header = h(
    FilterLine,
    {
      value: filter,
      editing: active && filtering,
      onChange: (v: string) => (setFilter(v), setSelected(0)),
      onDone: (keep: boolean) => (keep || setFilter(''), setFiltering(false)),
      placeholder: '/ workflow name',
    },
    h(Text, null, '   '),
    ...badges,
  );
  const { items, first } = windowOf(shown, at, rows - 3);
  const width = Math.max(8, ...shown.map((r) => r.workflow.length));
  return h(
    Box,
    { flexDirection: 'column' },
    header,
    h(
      Text,
      { bold: true },
      `  ${'STATUS'.padEnd(12)}${'WORKFLOW'.padEnd(width + 2)}${'ID'.padEnd(10)}${'STARTED'.padEnd(18)}DURATION`,
    ),
    ...(shown.length === 0
      ? [h(Text, { key: 'none', dimColor: true }, runs.length ? '  No run matches the filters.' : '  No runs yet.')]
      : items.map((r, i) =>
          h(
            Text,
            { key: r.run_id, inverse: first + i === at, wrap: 'truncate-end' },
            first + i === at ? '› ' : '  ',
            h(Text, { color: STATUS_COLOR[r.status] }, r.status.padEnd(12)),
            `${r.workflow.padEnd(width + 2)}${r.run_id.slice(0, 8).padEnd(10)}${startedAt(r.started_at).padEnd(18)}${duration(r.duration_ms)}`,
          ),
        )),
  );
}

const BADGE = { all: '[All]', success: '[✓ Success]', failed: '[✗ Failed]' };
