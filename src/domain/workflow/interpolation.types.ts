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
  /** The parsed output of an agent step with `output_format: json`. */
  JSON?: unknown;
  /** Structured results of plugin step types. */
  Data?: unknown;
  TokensUsed?: number;
  TokensInput?: number;
  TokensOutput?: number;
  /** True when the provider reported no usage and the counts are length/4 estimates. */
  TokensEstimated?: boolean;
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
  /** The enclosing loop's data in nested loops; null in the outermost (a nil field, as in Go). */
  Parent: LoopData | null;
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
  /** Strings as given; `type: array` inputs are lists. */
  inputs: Record<string, unknown>;
  states: Record<string, StepStateData>;
  workflow: WorkflowData;
  env: Record<string, string>;
  context: ContextData;
  /** AWF's directories: config_dir, data_dir, prompts_dir, scripts_dir, workflows_dir, plugins_dir, … */
  awf?: Record<string, string>;
  /** Only inside a loop body. */
  loop?: LoopData;
  /** Only in workflow_error hooks. */
  error?: ErrorData;
}

/** The properties `validate` accepts after `.states.<step>.` and `.workflow.`. */
export const STATE_FIELDS = [
  'Output',
  'Stderr',
  'ExitCode',
  'Status',
  'Response',
  'JSON',
  'Data',
  'TokensUsed',
  'TokensInput',
  'TokensOutput',
  'TokensEstimated',
] as const;
export const WORKFLOW_FIELDS = ['ID', 'Name', 'CurrentState', 'StartedAt', 'Duration'] as const;
export const NAMESPACES = ['inputs', 'states', 'workflow', 'env', 'context', 'awf', 'loop', 'error'] as const;
export const AWF_DIRS = [
  'config_dir',
  'data_dir',
  'prompts_dir',
  'scripts_dir',
  'workflows_dir',
  'plugins_dir',
  'skills_dir',
  'roles_dir',
  'pack_name',
] as const;

/**
 * The field a name written another way stands for (`output` → `Output`, `exit_code` →
 * `ExitCode`, `working_dir` → `WorkingDir`): what to suggest when a template misspells one.
 */
export function goSpelling(name: string, fields: readonly string[]): string | undefined {
  const plain = (s: string): string => s.replace(/_/g, '').toLowerCase();
  return fields.find((f) => f !== name && plain(f) === plain(name));
}
