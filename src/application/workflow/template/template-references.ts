import { isAwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import {
  AWF_DIRS,
  goSpelling,
  NAMESPACES,
  STATE_FIELDS,
  WORKFLOW_FIELDS,
} from '../../../domain/workflow/interpolation.types';
import { type ValidationIssue, issue } from '../../../domain/workflow/validation-issue.model';
import type { Step, Workflow } from '../../../domain/workflow/workflow.model';
import { collectStrings, flowTemplateFields, hookTemplateFields } from './flow-template-fields';
import { Template } from './template-engine';
import { CONTEXT_KEYS, ERROR_KEYS, LOOP_KEYS } from './template-namespaces';
import type { TemplateReference } from './template-walk';

/** The template fields of a step, by YAML key. Agent options are interpolated too (ADR 040). */
export function templateFields(step: Step): [string, string][] {
  return [...ownTemplateFields(step), ...hookTemplateFields(step)];
}

function ownTemplateFields(step: Step): [string, string][] {
  if (step.type !== 'step' && step.type !== 'agent' && step.type !== 'terminal') return flowTemplateFields(step);
  if (step.type === 'step') {
    const fields: [string, string][] = [
      step.scriptFile !== undefined ? ['script_file', step.scriptFile] : ['command', step.command],
    ];
    if (step.dir) fields.push(['dir', step.dir]);
    return fields;
  }
  if (step.type === 'terminal') return step.message ? [['message', step.message]] : [];
  const fields: [string, string][] = [
    ['provider', step.provider],
    step.promptFile !== undefined ? ['prompt_file', step.promptFile] : ['prompt', step.prompt],
  ];
  if (step.dir) fields.push(['dir', step.dir]);
  collectStrings(step.options, 'options', fields);
  return fields;
}

/** Where a template is, for the rules that depend on it. */
export interface TemplateScope {
  /** The step the template belongs to (its own state cannot be read), if any. */
  step?: string;
  /** `.error` exists only in workflow_error hooks. */
  errorHook?: boolean;
  /**
   * `warning` where AWF's validate does not look (prompts, messages, options, files' texts…):
   * AWF accepts such a workflow, so awf does too, and says what the run will do.
   */
  severity?: ValidationIssue['severity'];
}

/**
 * The fields AWF's own template check covers (its TemplateValidator: command, dir, the loop's
 * expressions, step and workflow hooks). A problem there is an error, as in AWF; elsewhere AWF
 * finds it only when the run renders the field, so `validate` warns (`--strict`: an error).
 */
const CHECKED_BY_AWF = /^(command|dir|items|max_iterations|hooks\.(pre|post)\[\d+\]\.(log|command))$/;

/**
 * What can be known before running: syntax, namespaces, declared inputs, existing states
 * and their fields. A reference to a state that has not run yet is caught at run time.
 */
export function checkTemplates(wf: Workflow): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const step of wf.steps) {
    // A post hook runs after its step, so it may read the step's own state.
    for (const [field, text] of templateFields(step))
      out.push(
        ...checkTemplate(wf, text, `states.${step.name}.${field}`, {
          step: field.startsWith('hooks.post') ? undefined : step.name,
          severity: CHECKED_BY_AWF.test(field) ? 'error' : 'warning',
        }),
      );
  }
  for (const [name, actions] of Object.entries(wf.hooks ?? {})) {
    actions?.forEach((a, i) => {
      const [field, text] = a.log !== undefined ? ['log', a.log] : ['command', a.command ?? ''];
      out.push(...checkTemplate(wf, text, `hooks.${name}[${i}].${field}`, { errorHook: name === 'workflow_error' }));
    });
  }
  return out;
}

/** One template string: its syntax, then every reference it makes from the root. */
export function checkTemplate(wf: Workflow, text: string, at: string, scope: TemplateScope): ValidationIssue[] {
  if (!text.includes('{{')) return [];
  const severity = scope.severity ?? 'error';
  // A terminal's message that cannot be rendered is shown as written; anything else fails its step.
  const then = severity === 'error' ? '' : at.endsWith('.message') ? WHEN_SHOWN : WHEN_RUN;
  let template: Template;
  try {
    template = Template.parse(text);
  } catch (err) {
    const code = isAwfError(err) ? err.code : ErrorCodes.WORKFLOW_TEMPLATE_SYNTAX;
    return [issue(code, at, (isAwfError(err) ? err.message : String(err)) + then, severity)];
  }
  const inputs = new Set(wf.inputs.map((i) => i.name));
  const states = new Set(wf.steps.map((s) => s.name));
  const out: ValidationIssue[] = [];
  for (const ref of template.references()) {
    const why = problem(ref, inputs, states, scope);
    const shown = ref.form === 'field' ? `.${ref.path.join('.')}` : ref.path.join('.');
    if (why) out.push(issue(ErrorCodes.WORKFLOW_UNDEFINED_REFERENCE, at, `{{${shown}}}: ${why}${then}`, severity));
  }
  return out;
}

const WHEN_RUN = ' (AWF does not check this field before running either; the step fails when it renders it)';
const WHEN_SHOWN = ' (AWF does not check this field either; the message is shown as written)';

/**
 * The keys each namespace has. The dotted form reads Go structs (PascalCase fields); the
 * function form reads AWF's accessor maps, which answer both spellings for loop, error and context.
 */
function fieldsOf(ns: string, form: TemplateReference['form']): readonly string[] | undefined {
  const both = (keys: Readonly<Record<string, string>>): string[] =>
    form === 'function' ? [...Object.values(keys), ...Object.keys(keys)] : Object.values(keys);
  if (ns === 'workflow') return WORKFLOW_FIELDS;
  if (ns === 'context') return both(CONTEXT_KEYS);
  if (ns === 'loop') return both(LOOP_KEYS);
  if (ns === 'error') return both(ERROR_KEYS);
  if (ns === 'awf') return AWF_DIRS;
  return undefined;
}

function problem(
  ref: TemplateReference,
  inputs: Set<string>,
  states: Set<string>,
  scope: TemplateScope,
): string | undefined {
  const [ns, key, field] = ref.path;
  if (!(NAMESPACES as readonly string[]).includes(ns))
    return `unknown namespace "${ns ?? ''}" (use ${NAMESPACES.join(', ')})`;
  if (ns === 'error' && !scope.errorHook) return '"error" is only defined in workflow_error hooks';
  if (key === undefined) return undefined;
  if (ns === 'inputs' && !inputs.has(key)) return `input "${key}" is not declared`;
  const fields = fieldsOf(ns, ref.form);
  if (fields && !fields.includes(key)) return noField(ns, key, fields);
  if (ns === 'states') {
    if (!states.has(key)) return `state "${key}" does not exist`;
    if (key === scope.step) return `a step cannot read its own state`;
    if (field !== undefined && !(STATE_FIELDS as readonly string[]).includes(field))
      return noField('a state', field, STATE_FIELDS);
  }
  return undefined;
}

/** `a state has no field "output"; use "Output"` (AWF's validator gives the same suggestion). */
function noField(owner: string, name: string, fields: readonly string[]): string {
  const spelled = goSpelling(name, fields);
  return spelled
    ? `${owner} has no field "${name}"; use "${spelled}" (Go templates read exported, capitalised fields)`
    : `${owner} has no field "${name}" (fields: ${fields.join(', ')})`;
}
