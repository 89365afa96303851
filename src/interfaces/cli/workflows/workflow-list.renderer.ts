import type { WorkflowSummary } from '../../../domain/workflow/ports/workflow-repository.port';
import { jsonLine, type OutputFormat } from '../global-flags';
import { renderTable } from '../table.renderer';

/**
 * `awf list`: a table, AWF's JSON list (`name, source, version, description`, plus `author` and
 * `tags` when the file has them), or names only (quiet). A TAGS column appears when any has tags.
 */
export function renderWorkflowList(
  list: WorkflowSummary[],
  searched: string[],
  format: OutputFormat,
  tag?: string,
): string {
  if (format === 'json') return jsonLine({ workflows: list });
  if (format === 'quiet') return list.map((w) => `${w.name}\n`).join('');
  if (list.length === 0 && tag) return `No workflow is tagged "${tag}".\n`;
  if (list.length === 0) return `No workflows found. Looked in:\n${searched.map((p) => `  ${p}`).join('\n')}\n`;
  const tagged = list.some((w) => w.tags?.length);
  const rows = [
    ['NAME', 'SOURCE', 'VERSION', ...(tagged ? ['TAGS'] : []), 'DESCRIPTION'],
    ...list.map((w) => [
      w.name,
      w.source,
      w.version ?? '',
      ...(tagged ? [(w.tags ?? []).join(',')] : []),
      oneLine(w.description ?? ''),
    ]),
  ];
  return renderTable(rows, format === 'table');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
