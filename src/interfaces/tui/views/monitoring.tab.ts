import { createElement as h, useEffect, useState, useSyncExternalStore } from 'react';
import { ink } from '../ink.loader';
import type { RunViewStore, StepView } from '../runs/run-view.store';
import type { TabProps } from '../tui-services';
import { TextField } from './text-field.view';
import { STATUS_COLOR } from './format';
import { windowOf } from './window';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * AWF's Monitoring tab: the step tree of the run launched last, the selected step's output
 * and conversation, and an input line when the run waits for the person (a conversation's
 * next turn). ↑/k ↓/j select a step (and stop following), `f` follows the running one.
 * Beyond AWF: runs started elsewhere are found in the history and shown too; `n` shows the next.
 */
export function MonitoringTab({ services, active, capture, rows }: TabProps) {
  const { Text, useInput } = ink();
  useSyncExternalStore(services.runs.subscribe, () => services.runs.version);
  useEffect(() => services.runs.watch(), [services.runs]);
  const run = services.runs.current;
  useInput((input) => input === 'n' && services.runs.next(), { isActive: active && !run?.question });
  if (!run)
    return h(
      Text,
      { dimColor: true },
      'No active execution. Launch a workflow from the Workflows tab (1); runs started elsewhere show here.',
    );
  return h(RunView, { key: run.workflow + String(services.runs.version), run, active, capture, rows });
}

function RunView({
  run,
  active,
  capture,
  rows,
}: { run: RunViewStore } & Pick<TabProps, 'active' | 'capture' | 'rows'>) {
  const { Box, Text, useInput } = ink();
  useSyncExternalStore(run.subscribe, () => run.version);
  const [follow, setFollow] = useState(true);
  const [picked, setPicked] = useState(0);
  const [scroll, setScroll] = useState(0);
  const [answer, setAnswer] = useState('');
  const [frame, setFrame] = useState(0);
  const running = run.status === 'starting' || run.status === 'running';
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setFrame((f) => f + 1), 120);
    return () => clearInterval(timer);
  }, [running]);
  useEffect(() => {
    capture(run.question !== undefined);
  }, [run.question, active]);

  const at = follow ? Math.max(0, run.steps.length - 1) : Math.min(picked, run.steps.length - 1);
  const step = run.steps[at];
  /** Picks a step (undefined: follow the newest) and shows the end of its output. */
  const pick = (index: number | undefined): void => {
    setFollow(index === undefined);
    if (index !== undefined) setPicked(Math.max(0, Math.min(run.steps.length - 1, index)));
    setScroll(0);
  };
  useInput(
    (input, key) => {
      if (key.upArrow || input === 'k') pick(at - 1);
      else if (key.downArrow || input === 'j') pick(at + 1);
      else if (input === 'f') pick(undefined);
      else if (key.pageUp) setScroll((s) => s + 10);
      else if (key.pageDown) setScroll((s) => Math.max(0, s - 10));
    },
    { isActive: active && !run.question },
  );

  const treeRows = Math.min(run.steps.length, Math.max(3, Math.floor(rows / 3)));
  const tree = windowOf(run.steps, at, treeRows);
  const outputRows = Math.max(1, rows - treeRows - 4 - (run.question ? 2 : 0));
  const lines = step ? [...step.lines, ...(step.error ? [`error: ${step.error}`] : [])] : [];
  const end = Math.max(0, lines.length - Math.min(scroll, Math.max(0, lines.length - outputRows)));
  return h(
    Box,
    { flexDirection: 'column' },
    h(
      Text,
      { bold: true },
      `${run.workflow}  `,
      h(Text, { color: STATUS_COLOR[run.status] }, run.status),
      h(Text, { dimColor: true }, run.runId ? `  run ${run.runId}` : ''),
      follow ? h(Text, { dimColor: true }, '  (following)') : null,
    ),
    run.elsewhere
      ? h(
          Text,
          { dimColor: true },
          `started elsewhere${run.elsewhere.at ? `, now at ${run.elsewhere.at}` : ''}` +
            ' (from the history: outcomes only, its output is not shown)',
        )
      : null,
    run.error ? h(Text, { color: 'red' }, run.error) : null,
    ...tree.items.map((s, i) =>
      h(
        Text,
        { key: `${s.name}-${i}`, inverse: tree.first + i === at },
        `${'  '.repeat(s.depth)}${icon(s, frame)} ${s.name}`,
        h(Text, { dimColor: true }, `  ${s.type}`),
      ),
    ),
    h(Text, { dimColor: true }, step ? `── ${step.name} ──` : '──'),
    ...lines.slice(Math.max(0, end - outputRows), end).map((l, i) => h(Text, { key: i, wrap: 'truncate-end' }, l)),
    run.question
      ? h(
          Box,
          { flexDirection: 'column' },
          h(Text, { color: 'yellow' }, run.question.prompt),
          h(
            Box,
            null,
            h(Text, { color: 'yellow' }, '> '),
            h(TextField, {
              value: answer,
              onChange: setAnswer,
              onSubmit: (v: string) => (setAnswer(''), run.question?.answer(v)),
              onCancel: () => (setAnswer(''), run.question?.answer(undefined)),
              focus: active,
            }),
          ),
        )
      : null,
  );
}

function icon(step: StepView, frame: number): string {
  if (step.status === 'running') return SPINNER[frame % SPINNER.length];
  if (step.status === 'success') return '✓';
  if (step.status === 'cancelled') return '⊘';
  return '✗';
}
