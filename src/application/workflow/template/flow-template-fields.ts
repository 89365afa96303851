import type { ExecutableStep, HookAction, Step } from '../../../domain/workflow/workflow.model';

export type TemplateField = [string, string];

/** The template fields of the step types flow added (parallel has none of its own). */
export function flowTemplateFields(step: Exclude<ExecutableStep, { type: 'step' | 'agent' }>): TemplateField[] {
  const out: TemplateField[] = [];
  if (step.type === 'for_each' && step.items) out.push(['items', step.items]);
  if ((step.type === 'for_each' || step.type === 'while') && step.maxIterationsExpr)
    out.push(['max_iterations', step.maxIterationsExpr]);
  if (step.type === 'call_workflow') for (const [k, v] of Object.entries(step.inputs)) out.push([`inputs.${k}`, v]);
  if (step.type === 'operation') collectStrings(step.inputs, 'inputs', out);
  return out;
}

/** `hooks.pre[i].command` and the like: hooks are templates on every step type. */
export function hookTemplateFields(step: Step): TemplateField[] {
  const out: TemplateField[] = [];
  const add = (list: HookAction[] | undefined, at: string): void =>
    list?.forEach((a, i) =>
      out.push(a.log !== undefined ? [`${at}[${i}].log`, a.log] : [`${at}[${i}].command`, a.command ?? '']),
    );
  add(step.hooks?.pre, 'hooks.pre');
  add(step.hooks?.post, 'hooks.post');
  return out;
}

export function collectStrings(value: unknown, path: string, out: TemplateField[]): void {
  if (typeof value === 'string') out.push([path, value]);
  else if (Array.isArray(value)) value.forEach((v, i) => collectStrings(v, `${path}[${i}]`, out));
  else if (typeof value === 'object' && value !== null)
    for (const [k, v] of Object.entries(value)) collectStrings(v, `${path}.${k}`, out);
}
