import { ErrorCodes as C } from '../error-codes';
import { type CatalogueText, type CodesOf, entry } from './catalogue-entry';

/** WORKFLOW codes (exit 2 on `run`): the workflow file itself is wrong; `awf validate` finds them all at once. */
export const WORKFLOW_ERRORS: Record<CodesOf<'WORKFLOW'>, CatalogueText> = {
  [C.WORKFLOW_YAML_SYNTAX]: entry(
    'The workflow file is not valid YAML, or is not a mapping.',
    'Fix the line and column the message gives; indentation and an unquoted `: ` inside a command are the usual causes.',
  ),
  [C.WORKFLOW_INVALID_FIELD]: entry(
    'A field has the wrong type or a value awf does not accept (a bad duration, a negative count, an unknown step type).',
    'Fix the field at the path the message names (docs/workflows.md).',
  ),
  [C.WORKFLOW_UNKNOWN_FIELD]: entry(
    'A key awf does not know, at the top of the workflow or in a step, often a typo; it is ignored (a warning unless --strict).',
    'Correct or remove it; the message suggests the closest known key.',
  ),
  [C.WORKFLOW_NO_EFFECT]: entry(
    'A key AWF accepts but never acts on: `capture`, or a `depends_on` that some path to its step skips (a warning unless --strict).',
    'Remove it, or route through the dependency; the message names what does the job (on_success, transitions, {{.states.<step>.Output}}).',
    C.WORKFLOW_UNKNOWN_FIELD,
  ),
  [C.WORKFLOW_MISSING_FIELD]: entry(
    "A required field is missing (a step's `command`, an agent's `provider` or `prompt`, `states.initial`, an input's `name`).",
    'Add the field at the path the message names.',
  ),
  [C.WORKFLOW_MISSING_STATE]: entry(
    'A transition, `initial`, a parallel branch or a loop body names a state that does not exist.',
    'Fix the name (the message suggests the closest state), or add the state.',
  ),
  [C.WORKFLOW_NO_TERMINAL]: entry(
    'The workflow has no `type: terminal` state, so no run can end.',
    'Add a terminal state (`type: terminal`, `status: success`) and route to it.',
  ),
  [C.WORKFLOW_NO_ROUTE]: entry(
    'A step ended and names no next state (`on_success`, `on_failure`, `transitions`).',
    'Add the missing transition.',
  ),
  [C.WORKFLOW_INVALID_CONDITION]: entry(
    "A `when:` expression (or a loop's `condition` or `break_when`) cannot be parsed or evaluated.",
    'Fix the expression; docs/workflows.md shows the operators awf accepts.',
  ),
  [C.WORKFLOW_TEMPLATE_SYNTAX]: entry(
    'A `{{…}}` template is malformed (an unclosed action, an unknown function).',
    'Fix the template at the field the message names.',
  ),
  [C.WORKFLOW_UNDEFINED_REFERENCE]: entry(
    'A template refers to something that does not exist: an undeclared input, an unknown state, an unknown namespace.',
    'Declare the input, or fix the name; `awf validate` finds these before a run.',
  ),
  [C.WORKFLOW_TEMPLATE_EXECUTION]: entry(
    'A template failed while it was evaluated (a function given the wrong kind of value).',
    'Check the values the template reads at that point of the run (`awf status <id>` shows each step).',
  ),
  [C.WORKFLOW_CIRCULAR_CALL]: entry(
    "`awf validate` found `call_workflow` steps that call each other in a cycle (or nest deeper than 10). A warning, since AWF's validate accepts it; the run stops when it reaches the call (EXECUTION.CALL_WORKFLOW.CIRCULAR). An error with `--strict`.",
    'Break the cycle: a workflow may not call itself, directly or through others.',
    C.EXECUTION_CALL_CIRCULAR,
    C.EXECUTION_CALL_DEPTH,
  ),
  [C.WORKFLOW_UNKNOWN_OPERATION]: entry(
    "`awf validate` found an `operation` step naming an operation that no plugin provides and that is not built in (like `http.request`). A warning, since AWF's validate accepts it (the plugin may be installed before the run); the run stops at that step if it is still unknown then (USER.MCP_PROXY.UNKNOWN_PLUGIN, or USER.PLUGIN.NOT_FOUND for an operation the plugin does not have). An error with `--strict`.",
    'Install or enable the plugin, or fix the name; `awf plugin list` shows the operations.',
  ),
  [C.STEP_TEMPLATE_NOT_FOUND]: entry(
    "A step says `use_template: <name>`, and no `<name>.yaml` is in the template directories (the workflow's own `.awf/templates`, ./.awf/templates, then <storage>/templates).",
    'Create the template file in ./.awf/templates (docs/workflows.md, "Step templates"), or fix the name; the message lists where awf looked.',
    C.STEP_TEMPLATE_MISSING_PARAMETER,
  ),
  [C.STEP_TEMPLATE_MISSING_PARAMETER]: entry(
    'A step uses a template without a parameter the template declares as required.',
    "Add the parameter under the step's `parameters:`, or give it a `default` in the template.",
    C.STEP_TEMPLATE_NOT_FOUND,
  ),
  [C.STEP_TEMPLATE_INVALID]: entry(
    'A step template cannot be used: its file is not valid YAML or lacks `name`/`states`, its parameters are malformed, it uses a parameter it does not declare, or templates use each other in a circle.',
    'Fix the template file the message names (docs/workflows.md, "Step templates").',
  ),
};
