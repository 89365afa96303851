import { createElement as h, useEffect, useState } from 'react';
import type { RunDetail } from '../../../domain/ports/run-index.port';
import { ink } from '../ink.loader';
import type { TuiServices } from '../tui-services';
import { duration, messageOf, startedAt, STATUS_COLOR } from './format';

/** One past run in the History tab: its facts, inputs (masked) and steps; esc goes back to the list. */
export function RunDetailView(props: { services: TuiServices; runId: string; active: boolean; onBack(): void }) {
  const { services, runId, active, onBack } = props;
  const { Box, Text, useInput } = ink();
  const [run, setRun] = useState<RunDetail>();
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    services.history.detail(runId).then(setRun, (e: unknown) => setProblem(messageOf(e, services.mask)));
  }, [runId, services]);
  useInput((_input, key) => key.escape && onBack(), { isActive: active });
  if (problem) return h(Text, { color: 'red' }, problem);
  if (!run) return h(Text, { dimColor: true }, 'Loading run…');
  const mask = services.mask;
  const inputs = Object.entries(run.inputs);
  return h(
    Box,
    { flexDirection: 'column' },
    h(Text, { bold: true }, `${run.workflow}  `, h(Text, { color: STATUS_COLOR[run.status] }, run.status)),
    h(Text, null, `run       ${run.run_id}`),
    h(Text, null, `file      ${run.file}`),
    h(Text, null, `started   ${startedAt(run.started_at)}   duration ${duration(run.duration_ms)}`),
    run.error ? h(Text, { color: 'red' }, mask(`[${run.error.code}] ${run.error.message}`)) : null,
    inputs.length ? h(Text, { bold: true }, 'inputs') : null,
    ...inputs.map(([k, v]) => h(Text, { key: `i-${k}` }, `  ${k} = ${mask(v)}`)),
    h(Text, { bold: true }, 'steps'),
    ...run.step_records.map((s) =>
      h(
        Text,
        { key: `s-${s.seq}` },
        `  ${s.status === 'success' ? '✓' : '✗'} ${s.name.padEnd(20)} ${duration(s.duration_ms).padStart(8)}`,
        s.tool_calls ? `  ${s.tool_calls} tool calls` : '',
        s.error ? h(Text, { color: 'red' }, `  ${mask(s.error.message)}`) : null,
      ),
    ),
    h(Text, { dimColor: true }, 'esc back'),
  );
}
