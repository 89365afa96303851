/**
 * What templates can see, with AWF's casing: `.inputs.x`, `.states.build.Output`,
 * `.workflow.Name`, `.env.HOME`. State and workflow fields are PascalCase; input and env
 * keys are taken as written.
 */
export interface StepStateData {
  Output: string;
  Stderr: string;
  ExitCode: number;
  Status: 'success' | 'failure' | 'cancelled';
  /** The output parsed as JSON when it is a JSON object or array (agents). */
  Response?: unknown;
}

export interface WorkflowData {
  ID: string;
  Name: string;
  CurrentState: string;
  StartedAt: string;
}

export interface ContextData {
  WorkingDir: string;
  User: string;
  Hostname: string;
}

export interface TemplateContext {
  inputs: Record<string, string>;
  states: Record<string, StepStateData>;
  workflow: WorkflowData;
  env: Record<string, string>;
  context: ContextData;
}

/** The properties `validate` accepts after `.states.<step>.` and `.workflow.`. */
export const STATE_FIELDS = ['Output', 'Stderr', 'ExitCode', 'Status', 'Response'] as const;
export const WORKFLOW_FIELDS = ['ID', 'Name', 'CurrentState', 'StartedAt'] as const;
export const CONTEXT_FIELDS = ['WorkingDir', 'User', 'Hostname'] as const;
export const NAMESPACES = ['inputs', 'states', 'workflow', 'env', 'context'] as const;
