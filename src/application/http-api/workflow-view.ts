import type { HookAction, InputDef, Step, Workflow } from '../../domain/workflow/workflow.model';

/**
 * A workflow as AWF's `GET /api/workflows/{scope}/{name}` gives it: its Go struct marshalled
 * as is, so the field names are Go's (`Name`, `Inputs`, `Steps` keyed by state name, a step's
 * `Timeout` in seconds). Fields awf's model has no value for are left out.
 */
export function workflowView(w: Workflow) {
  return {
    Name: w.name,
    Description: w.description ?? '',
    Version: w.version ?? '',
    Author: w.author ?? '',
    Tags: w.tags ?? null,
    Inputs: w.inputs.map(inputView),
    Env: w.env?.required ?? null,
    Initial: w.initial,
    Steps: Object.fromEntries(w.steps.map((s) => [s.name, stepView(s)])),
    Hooks: Object.fromEntries(Object.entries(w.hooks).map(([name, actions]) => [hookName(name), actions?.map(hook)])),
    SourceDir: w.sourceDir ?? '',
  };
}

function inputView(i: InputDef) {
  return {
    Name: i.name,
    Type: i.type ?? 'string',
    Description: i.description ?? '',
    Required: i.required,
    Default: i.secret ? null : (i.default ?? null),
    Secret: i.secret,
    Validation: i.validation ?? null,
  };
}

function stepView(s: Step) {
  const base = {
    Name: s.name,
    Type: s.type === 'step' ? 'command' : s.type,
    Description: s.description ?? '',
    OnSuccess: s.onSuccess ?? '',
    OnFailure: s.onFailure ?? '',
    Transitions: s.transitions.map((t) => ({ When: t.when ?? '', Goto: t.goto })),
    ContinueOnError: s.continueOnError,
    Timeout: Math.round(s.timeoutMs / 1000),
  };
  switch (s.type) {
    case 'step':
      return { ...base, Command: s.command, ScriptFile: s.scriptFile ?? '', Dir: s.dir ?? '' };
    case 'agent':
      return { ...base, Agent: { Provider: s.provider, Prompt: s.prompt, Mode: s.mode }, Dir: s.dir ?? '' };
    case 'terminal':
      return { ...base, Status: s.status, Message: s.message ?? '' };
    case 'parallel':
      return { ...base, Branches: s.branches, Strategy: s.strategy, MaxConcurrent: s.maxConcurrent };
    case 'for_each':
    case 'while':
      return { ...base, Loop: { Items: s.items ?? '', Condition: s.condition ?? '', Body: s.body } };
    case 'call_workflow':
      return { ...base, CallWorkflow: { Workflow: s.workflow, Inputs: s.inputs, Outputs: s.outputs } };
    case 'operation':
      return { ...base, Operation: s.operation, OperationInputs: s.inputs };
  }
}

/** `workflow_start` → `WorkflowStart`, as Go names the hooks struct's fields. */
function hookName(name: string): string {
  return name.replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase());
}

function hook(a: HookAction) {
  return a.log !== undefined ? { Log: a.log } : { Command: a.command ?? '' };
}
