import type { WorkflowSummary } from '../../domain/workflow/ports/workflow-repository.port';
import type { OutputFormat } from './output-format';

/** `awf list`: a plain table, or the JSON list AWF prints (`name, source, version, description`). */
export function renderWorkflowList(list: WorkflowSummary[], searched: string[], format: OutputFormat): string {
  if (format === 'json') return `${JSON.stringify(list)}\n`;
  if (list.length === 0) return `No workflows found. Looked in:\n${searched.map((p) => `  ${p}`).join('\n')}\n`;
  const rows = [['NAME', 'SOURCE', 'VERSION', 'DESCRIPTION'], ...list.map((w) => [w.name, w.source, w.version ?? '', oneLine(w.description ?? '')])];
  const widths = rows[0].map((_, col) => Math.max(...rows.map((r) => r[col].length)));
  return rows.map((r) => r.map((cell, col) => (col === r.length - 1 ? cell : cell.padEnd(widths[col]))).join('  ').trimEnd()).join('\n') + '\n';
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
