import { ErrorCodes } from '../errors/error-codes';
import { parseTags, parseWorkflowEnv, parseWorkflowOutputs } from './workflow-meta.parser';
import { parseWorkflowHooks } from './hooks.parser';
import { parseInputs } from './input.parser';
import { isMap, type Raw, scalar, str } from './raw-yaml';
import { expandStepTemplates, NO_STEP_TEMPLATES, type StepTemplateSource } from './step-templates';
import { checkDependsOn } from './depends-on.rules';
import { inlineTerminal, parseStep } from './step.parser';
import { checkUnknownKeys } from './unknown-keys.rules';
import { type ValidationIssue, issue } from './validation-issue.model';
import type { Step, Workflow } from './workflow.model';

export interface ParseResult {
  workflow?: Workflow;
  issues: ValidationIssue[];
}

/**
 * Maps the YAML document to the model the way AWF's loader does: unknown keys are ignored
 * (except in `mcp_proxy`), `type: command` means `step`, an inline `on_failure` object
 * becomes a terminal state. Every problem is collected; nothing stops at the first.
 */
export function parseWorkflow(
  source: unknown,
  id: string,
  templates: StepTemplateSource = NO_STEP_TEMPLATES,
): ParseResult {
  if (!isMap(source))
    return { issues: [issue(ErrorCodes.WORKFLOW_YAML_SYNTAX, '', 'a workflow file must be a YAML mapping')] };
  const { doc, issues } = expandStepTemplates(source, templates) as { doc: Raw; issues: ValidationIssue[] };
  issues.push(...checkUnknownKeys(doc));
  if (doc.plugins !== undefined && doc.plugins !== null)
    issues.push(
      issue(
        ErrorCodes.WORKFLOW_NO_EFFECT,
        'plugins',
        'plugins: names aliases for plugin step types (type: <alias>.<step>), which awf does not run; it has no effect',
        'warning',
      ),
    );
  const name = str(doc.name);
  if (!name) issues.push(issue(ErrorCodes.WORKFLOW_MISSING_FIELD, 'name', 'required field missing'));
  const inputs = parseInputs(doc.inputs, issues);
  const states = doc.states;
  if (!isMap(states)) {
    issues.push(
      issue(
        ErrorCodes.WORKFLOW_MISSING_FIELD,
        'states',
        'required field missing (a mapping with `initial` and the steps)',
      ),
    );
    return { issues };
  }
  const initial = str(states.initial);
  if (!initial) issues.push(issue(ErrorCodes.WORKFLOW_MISSING_FIELD, 'states.initial', 'required field missing'));
  const steps: Step[] = [];
  const inline: Step[] = [];
  for (const [stepName, raw] of Object.entries(states)) {
    if (stepName === 'initial') continue;
    const step = parseStep(stepName, raw, issues);
    if (!step) continue;
    steps.push(step);
    const onFailure = isMap(raw) ? raw.on_failure : undefined;
    if (isMap(onFailure)) inline.push(inlineTerminal(stepName, onFailure));
  }
  const workflow: Workflow = {
    id,
    name: name ?? id,
    version: scalar(doc.version),
    description: str(doc.description),
    inputs,
    initial: initial ?? '',
    steps: [...steps, ...inline],
    hooks: parseWorkflowHooks(doc.hooks, issues),
    outputs: parseWorkflowOutputs(doc.outputs, issues),
    author: scalar(doc.author),
    tags: parseTags(doc.tags, issues),
    env: parseWorkflowEnv(doc.env, issues),
  };
  issues.push(...checkDependsOn(states, workflow));
  return { workflow, issues };
}
