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

/**
 * `.loop` inside a for_each / while body (AWF's LoopData). `Item` keeps its JSON type; an
 * object or array prints as JSON. In a `while`, `Item` is absent, `Last` false, `Length` -1.
 */
export interface LoopData {
  Item?: unknown;
  Index: number;
  Index1: number;
  First: boolean;
  Last: boolean;
  Length: number;
  /** The enclosing loop's data, in nested loops. */
  Parent?: LoopData;
}

/** `.error` in `workflow_error` hooks: what ended the run, and where. */
export interface ErrorData {
  Message: string;
  State: string;
  ExitCode: number;
  /** AWF's classification: user, workflow, execution or system. */
  Type: 'user' | 'workflow' | 'execution' | 'system';
}

export interface TemplateContext {
  inputs: Record<string, string>;
  states: Record<string, StepStateData>;
  workflow: WorkflowData;
  env: Record<string, string>;
  context: ContextData;
  loop?: LoopData;
  error?: ErrorData;
}

/** The properties `validate` accepts after `.states.<step>.` and `.workflow.`. */
export const STATE_FIELDS = ['Output', 'Stderr', 'ExitCode', 'Status', 'Response'] as const;
export const WORKFLOW_FIELDS = ['ID', 'Name', 'CurrentState', 'StartedAt'] as const;
export const CONTEXT_FIELDS = ['WorkingDir', 'User', 'Hostname'] as const;
export const LOOP_FIELDS = ['Item', 'Index', 'Index1', 'First', 'Last', 'Length', 'Parent'] as const;
export const ERROR_FIELDS = ['Message', 'State', 'ExitCode', 'Type'] as const;
export const NAMESPACES = ['inputs', 'states', 'workflow', 'env', 'context', 'loop', 'error'] as const;
