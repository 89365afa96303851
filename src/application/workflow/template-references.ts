import { isAwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { CONTEXT_FIELDS, NAMESPACES, STATE_FIELDS, WORKFLOW_FIELDS } from '../../domain/workflow/interpolation.types';
import { type ValidationIssue, issue } from '../../domain/workflow/validation-issue.model';
import type { Step, Workflow } from '../../domain/workflow/workflow.model';
import { collectStrings, flowTemplateFields, hookTemplateFields } from './flow-template-fields';
import { Template } from './template-engine';

/** The template fields of a step, by YAML key. Agent options are interpolated too (ADR). */
export function templateFields(step: Step): [string, string][] {
  return [...ownTemplateFields(step), ...hookTemplateFields(step)];
}

function ownTemplateFields(step: Step): [string, string][] {
  if (step.type !== 'step' && step.type !== 'agent' && step.type !== 'terminal') return flowTemplateFields(step);
  if (step.type === 'step') return [['command', step.command], ...(step.dir ? [['dir', step.dir] as [string, string]] : [])];
  if (step.type === 'terminal') return step.message ? [['message', step.message]] : [];
  const fields: [string, string][] = [['provider', step.provider], ['prompt', step.prompt]];
  if (step.dir) fields.push(['dir', step.dir]);
  collectStrings(step.options, 'options', fields);
  return fields;
}

/**
 * What can be known before running: syntax, namespaces, declared inputs, existing states
 * and their fields. A reference to a state that has not run yet is caught at run time.
 */
export function checkTemplates(wf: Workflow): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const inputs = new Set(wf.inputs.map((i) => i.name));
  const states = new Set(wf.steps.map((s) => s.name));
  for (const step of wf.steps) {
    for (const [field, text] of templateFields(step)) {
      if (!text.includes('{{')) continue;
      const at = `states.${step.name}.${field}`;
      let template: Template;
      try {
        template = Template.parse(text);
      } catch (err) {
        out.push(issue(isAwfError(err) ? err.code : ErrorCodes.WORKFLOW_TEMPLATE_SYNTAX, at, isAwfError(err) ? err.message : String(err)));
        continue;
      }
      for (const path of template.references()) {
        // A post hook runs after its step, so it may read the step's own state.
        const why = problem(path, inputs, states, field.startsWith('hooks.post') ? '' : step.name);
        if (why) out.push(issue(ErrorCodes.WORKFLOW_UNDEFINED_REFERENCE, at, `{{.${path.join('.')}}}: ${why}`));
      }
    }
  }
  return out;
}

function problem(path: string[], inputs: Set<string>, states: Set<string>, self: string): string | undefined {
  const [ns, key, field] = path;
  if (!(NAMESPACES as readonly string[]).includes(ns)) return `unknown namespace "${ns ?? ''}" (use ${NAMESPACES.join(', ')})`;
  if (key === undefined) return undefined;
  if (ns === 'inputs' && !inputs.has(key)) return `input "${key}" is not declared`;
  if (ns === 'workflow' && !(WORKFLOW_FIELDS as readonly string[]).includes(key)) return `workflow has no field "${key}" (fields: ${WORKFLOW_FIELDS.join(', ')})`;
  if (ns === 'context' && !(CONTEXT_FIELDS as readonly string[]).includes(key)) return `context has no field "${key}" (fields: ${CONTEXT_FIELDS.join(', ')})`;
  if (ns === 'states') {
    if (!states.has(key)) return `state "${key}" does not exist`;
    if (key === self) return `a step cannot read its own state`;
    if (field !== undefined && !(STATE_FIELDS as readonly string[]).includes(field)) return `a state has no field "${field}" (fields: ${STATE_FIELDS.join(', ')})`;
  }
  return undefined;
}
