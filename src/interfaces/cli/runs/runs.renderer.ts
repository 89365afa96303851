import type { RunDetail, RunSummary } from '../../../domain/ports/run-index.port';
import { formatDuration } from '../../../domain/workflow/duration';
import { jsonLine, type OutputFormat } from '../global-flags';
import { renderTable } from '../table.renderer';

/** `awf history`, `awf runs list`, `awf resume-list`: newest first. */
export function renderRunList(runs: RunSummary[], format: OutputFormat): string {
  if (format === 'json') return jsonLine({ runs });
  if (format === 'quiet') return runs.map((r) => `${r.run_id}\n`).join('');
  if (runs.length === 0)
    return 'No runs recorded yet (they are kept in history.db under --storage, default $XDG_DATA_HOME/awf).\n';
  const rows = [
    ['RUN ID', 'WORKFLOW', 'STATUS', 'STARTED', 'DURATION', 'STEPS', 'AT'],
    ...runs.map((r) => [
      r.run_id,
      r.workflow,
      r.status,
      r.started_at.replace('T', ' ').slice(0, 19),
      r.duration_ms === undefined ? '-' : formatDuration(r.duration_ms),
      String(r.steps),
      r.status === 'success' ? (r.terminal ?? '-') : (r.current_step ?? '-'),
    ]),
  ];
  return renderTable(rows, format === 'table');
}

/** `awf status <id>`: the run and each of its steps. */
export function renderRunStatus(run: RunDetail, format: OutputFormat): string {
  // The output is counted, not printed: `awf runs show` prints it.
  const steps = run.step_records.map(({ state, output: _output, ...rest }) => ({
    ...rest,
    output_bytes: Buffer.byteLength(state.Output),
  }));
  if (format === 'json') {
    const { step_records: _records, ...summary } = run;
    return jsonLine({ ...summary, step_records: steps });
  }
  if (format === 'quiet') return `${run.status}\n`;
  const head = [
    `run ${run.run_id}`,
    `  workflow  ${run.workflow} (${run.file})`,
    `  status    ${run.status}${run.error ? `  [${run.error.code}] ${run.error.message.split('\n')[0]}` : ''}`,
    `  started   ${run.started_at}${run.finished_at ? `, finished ${run.finished_at}` : ''}`,
    ...(run.status !== 'success' && run.current_step ? [`  at step   ${run.current_step}`] : []),
  ].join('\n');
  if (steps.length === 0) return `${head}\n\nno step has finished\n`;
  const rows = [
    ['#', 'STEP', 'TYPE', 'STATUS', 'DURATION', 'EXIT', 'TOOL CALLS', 'NEXT'],
    ...steps.map((s) => [
      String(s.seq),
      s.name,
      s.type,
      s.status,
      formatDuration(s.duration_ms),
      String(s.exit_code),
      String(s.tool_calls),
      s.next ?? '-',
    ]),
  ];
  return `${head}\n\n${renderTable(rows, format === 'table')}`;
}
