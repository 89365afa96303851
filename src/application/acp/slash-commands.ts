import type { AcpCommand } from '../../domain/ports/acp-editor.port';
import type { WorkflowSummary } from '../../domain/workflow/ports/workflow-repository.port';
import type { InputDef, Workflow } from '../../domain/workflow/workflow.model';

interface InputSpec {
  name: string;
  type: string;
  description?: string;
}

/**
 * A workflow as an editor's slash command: its name, its description (never empty: strict
 * editors refuse the whole list when one lacks it), a hint of its inputs, and AWF's
 * `requiredInputs` / `optionalInputs` under `_meta.awf` (the ACP schema has no field for them).
 */
export function slashCommand(summary: WorkflowSummary, workflow?: Workflow): AcpCommand {
  const inputs = workflow?.inputs ?? [];
  const required = inputs.filter((i) => i.required && i.default === undefined);
  const optional = inputs.filter((i) => !required.includes(i));
  const hint = [...required.map((i) => `${i.name}=…`), ...optional.map((i) => `[${i.name}=…]`)].join(' ');
  return {
    name: summary.name,
    description: workflow?.description || summary.description || summary.name,
    ...(hint ? { input: { hint } } : {}),
    _meta: { awf: { requiredInputs: required.map(spec), optionalInputs: optional.map(spec) } },
  };
}

function spec(input: InputDef): InputSpec {
  return {
    name: input.name,
    type: input.type ?? 'string',
    ...(input.description ? { description: input.description } : {}),
  };
}
