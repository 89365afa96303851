import type { WorkflowSummary } from '../../domain/workflow/ports/workflow-repository.port';
import { jsonLine, type OutputFormat } from './global-flags';
import { renderTable } from './table.renderer';

/** `awf list`: a table, AWF's JSON list (`name, source, version, description`), or names only (quiet). */
export function renderWorkflowList(list: WorkflowSummary[], searched: string[], format: OutputFormat): string {
  if (format === 'json') return jsonLine({ workflows: list });
  if (format === 'quiet') return list.map((w) => `${w.name}\n`).join('');
  if (list.length === 0) return `No workflows found. Looked in:\n${searched.map((p) => `  ${p}`).join('\n')}\n`;
  const rows = [
    ['NAME', 'SOURCE', 'VERSION', 'DESCRIPTION'],
    ...list.map((w) => [w.name, w.source, w.version ?? '', oneLine(w.description ?? '')]),
  ];
  return renderTable(rows, format === 'table');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
