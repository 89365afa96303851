import type { Workflow } from '../../../domain/workflow/workflow.model';
import { jsonLine, type OutputFormat } from '../global-flags';
import { renderTable } from '../table.renderer';

/**
 * `awf run <wf> --help`: the workflow's description and its inputs (AWF's table: name, type,
 * required, default, description), then the options of `run`. Without a workflow, just those.
 */
export function renderWorkflowHelp(workflow: Workflow | undefined, usage: string, format: OutputFormat): string {
  if (format === 'json') {
    return jsonLine({
      workflow: workflow?.name,
      description: workflow?.description,
      ...(workflow?.author ? { author: workflow.author } : {}),
      ...(workflow?.tags?.length ? { tags: workflow.tags } : {}),
      inputs: (workflow?.inputs ?? []).map((i) => ({
        name: i.name,
        type: i.type ?? 'string',
        required: i.required,
        ...(i.default !== undefined ? { default: i.default } : {}),
        ...(i.description ? { description: i.description } : {}),
        secret: i.secret,
      })),
    });
  }
  if (!workflow) return usage;
  const head = [
    `Workflow: ${workflow.name}`,
    ...(workflow.description ? [`Description: ${workflow.description}`] : []),
    ...(workflow.author ? [`Author: ${workflow.author}`] : []),
    ...(workflow.tags?.length ? [`Tags: ${workflow.tags.join(', ')}`] : []),
  ];
  const rows = workflow.inputs.map((i) => [
    i.name,
    i.type ?? 'string',
    i.required ? 'yes' : 'no',
    i.default ?? '-',
    i.description?.trim() || 'No description',
  ]);
  const header = ['NAME', 'TYPE', 'REQUIRED', 'DEFAULT', 'DESCRIPTION'];
  const table = rows.length
    ? `Input Parameters:\n${renderTable([header, ...rows], format === 'table')
        .trimEnd()
        .replace(/^/gm, '  ')}\n`
    : 'No input parameters\n';
  return `${head.join('\n')}\n\n${table}\n${usage}`;
}
