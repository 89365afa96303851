import { ErrorCodes } from '../errors/error-codes';
import { closest } from './unknown-keys.rules';
import { type ValidationIssue, issue } from './validation-issue.model';
import { isMap, type Raw } from './raw-yaml';

/** A template file found by name, or the directories where it was looked for. */
export type StepTemplateLookup =
  { file: string; doc: unknown } | { file: string; error: string } | { searched: string[] };

/**
 * Where `use_template: <name>` finds `<name>.yaml` (AWF: ./.awf/templates, then
 * <storage>/templates). Contract: `find` never throws; a file that is not YAML is `{file, error}`.
 */
export interface StepTemplateSource {
  find(name: string): StepTemplateLookup;
}

export const NO_STEP_TEMPLATES: StepTemplateSource = { find: () => ({ searched: [] }) };

/** The keys a template step does not pass on: its routing points at the template's states. */
const ROUTING = ['on_success', 'on_failure', 'transitions'];
const PLACEHOLDER = /\{\{\s*\.?parameters\.([A-Za-z_][\w-]*)\s*\}\}/g;
const WHOLE = /^\{\{\s*\.?parameters\.([A-Za-z_][\w-]*)\s*\}\}$/;
const NAME = /^[A-Za-z0-9_][\w.-]*$/;

interface TemplateDef {
  name: string;
  file: string;
  params: { name: string; required: boolean; default?: unknown }[];
  step: Raw;
}

/**
 * AWF's step templates, expanded when the workflow is loaded (so run, validate, --dry-run and
 * `run --help` see one workflow): a step with `use_template` becomes the template's primary step
 * (the state named like the template, else its `initial`, else its first) with `{{parameters.x}}`
 * (or `{{.parameters.x}}`) replaced, its routing dropped, and the step's own keys on top. A step
 * that cannot be expanded is left as written, and an error says why.
 */
export function expandStepTemplates(
  doc: unknown,
  source: StepTemplateSource,
): { doc: unknown; issues: ValidationIssue[] } {
  if (!isMap(doc) || !isMap(doc.states) || !Object.values(doc.states).some((s) => isMap(s) && 'use_template' in s))
    return { doc, issues: [] };
  const issues: ValidationIssue[] = [];
  const states: Raw = {};
  for (const [name, raw] of Object.entries(doc.states)) {
    const templated = name !== 'initial' && isMap(raw) && 'use_template' in raw;
    states[name] = (templated && expandStep(raw, `states.${name}`, source, [], issues)) || raw;
  }
  return { doc: { ...doc, states }, issues };
}

function expandStep(
  raw: Raw,
  at: string,
  source: StepTemplateSource,
  chain: string[],
  out: ValidationIssue[],
): Raw | undefined {
  const ref = raw.use_template;
  const fail = (code: string, message: string, path = `${at}.use_template`): undefined =>
    void out.push(issue(code, path, message));
  if (typeof ref !== 'string' || !NAME.test(ref) || ref.includes('..'))
    return fail(
      ErrorCodes.STEP_TEMPLATE_INVALID,
      `${JSON.stringify(ref)} is not a template name (a file name without .yaml, with no / or ..)`,
    );
  if (chain.includes(ref))
    return fail(ErrorCodes.STEP_TEMPLATE_INVALID, `circular template reference: ${[...chain, ref].join(' -> ')}`);
  const found = source.find(ref);
  if ('searched' in found) {
    const where = found.searched.length ? ` (looked for ${ref}.yaml in: ${found.searched.join(', ')})` : '';
    const fix = found.searched.length ? `create ${found.searched[0]}/${ref}.yaml, or fix the name` : 'fix the name';
    return fail(ErrorCodes.STEP_TEMPLATE_NOT_FOUND, `template "${ref}" not found${where}; ${fix}`);
  }
  if ('error' in found)
    return fail(ErrorCodes.STEP_TEMPLATE_INVALID, `template "${ref}" (${found.file}): ${found.error}`);
  const tpl = templateDef(found.doc, found.file);
  if (!tpl)
    return fail(
      ErrorCodes.STEP_TEMPLATE_INVALID,
      `template "${ref}" (${found.file}): needs a name, parameters as a list of {name, required, default}, and states with at least one step`,
    );
  const values = parameterValues(raw.parameters, tpl, at, out);
  if (!values) return undefined;
  const undeclared = new Set<string>();
  let step = substitute(tpl.step, values, undeclared) as Raw;
  if (undeclared.size > 0) {
    const [first] = undeclared;
    return fail(
      ErrorCodes.STEP_TEMPLATE_INVALID,
      `template "${ref}" (${tpl.file}) uses {{parameters.${first}}} but does not declare it; add {name: ${first}} to its parameters`,
    );
  }
  if ('use_template' in step) {
    const nested = expandStep(step, at, source, [...chain, ref], out);
    if (!nested) return undefined;
    step = nested;
  }
  const body = Object.fromEntries(Object.entries(step).filter(([k]) => !ROUTING.includes(k)));
  const own = Object.fromEntries(Object.entries(raw).filter(([k]) => k !== 'use_template' && k !== 'parameters'));
  return { ...body, ...own };
}

function templateDef(doc: unknown, file: string): TemplateDef | undefined {
  if (!isMap(doc) || typeof doc.name !== 'string' || !doc.name || !isMap(doc.states)) return undefined;
  const rawParams = doc.parameters ?? [];
  if (!Array.isArray(rawParams)) return undefined;
  const params: TemplateDef['params'] = [];
  for (const p of rawParams) {
    if (!isMap(p) || typeof p.name !== 'string' || !p.name || params.some((q) => q.name === p.name)) return undefined;
    params.push({
      name: p.name,
      required: p.required === true,
      ...(p.default !== undefined ? { default: p.default } : {}),
    });
  }
  const states = doc.states;
  const steps = Object.entries(states).filter(([k, v]) => k !== 'initial' && isMap(v)) as [string, Raw][];
  const pick = (name: unknown) => steps.find(([k]) => k === name)?.[1];
  const step = pick(doc.name) ?? pick(states.initial) ?? steps[0]?.[1];
  return step ? { name: doc.name, file, params, step } : undefined;
}

/** Defaults under the given values; undefined (and an error) when a required one is missing. */
function parameterValues(given: unknown, tpl: TemplateDef, at: string, out: ValidationIssue[]): Raw | undefined {
  if (given !== undefined && given !== null && !isMap(given)) {
    out.push(
      issue(ErrorCodes.STEP_TEMPLATE_INVALID, `${at}.parameters`, 'parameters must be a mapping of name: value'),
    );
    return undefined;
  }
  const values: Raw = Object.fromEntries(tpl.params.map((p) => [p.name, p.default]));
  const declared = tpl.params.map((p) => p.name);
  for (const [key, value] of Object.entries(given ?? {})) {
    if (declared.includes(key)) {
      values[key] = value;
      continue;
    }
    const near = closest(key, declared);
    const hint = `${near ? `did you mean "${near}"?; ` : ''}it declares: ${declared.join(', ') || 'none'}`;
    out.push(
      issue(
        ErrorCodes.WORKFLOW_UNKNOWN_FIELD,
        `${at}.parameters.${key}`,
        `template "${tpl.name}" has no parameter "${key}" (${hint}); it is ignored`,
        'warning',
      ),
    );
  }
  const missing = tpl.params.filter((p) => p.required && values[p.name] === undefined);
  for (const p of missing)
    out.push(
      issue(
        ErrorCodes.STEP_TEMPLATE_MISSING_PARAMETER,
        `${at}.parameters`,
        `template "${tpl.name}" (${tpl.file}) needs parameter "${p.name}"; add \`${p.name}: <value>\` under parameters`,
      ),
    );
  return missing.length ? undefined : values;
}

/** Every string at any depth: a whole-string placeholder takes the value itself, else its text. */
function substitute(value: unknown, values: Raw, undeclared: Set<string>): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole && whole[1] in values) return values[whole[1]] ?? '';
    return value.replace(PLACEHOLDER, (text, name: string) => {
      if (!(name in values)) {
        undeclared.add(name);
        return text;
      }
      return asText(values[name]);
    });
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, values, undeclared));
  if (isMap(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, values, undeclared)]));
  return value;
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
