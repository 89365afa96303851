import type { PolicySpec } from '../policy/policy.model';
/**
 * The workflow model: AWF's YAML format after parsing, before any interpolation.
 * Field names follow the YAML keys so a message can point at `states.<step>.<key>`.
 */
import type { UpstreamServerRef } from '../proxy/upstream-server';
/**
 * `array`: a JSON list (a YAML list as default); `number`: any number. Both are awf's (AWF's
 * validator refuses them).
 */
export type InputType = 'string' | 'integer' | 'boolean' | 'number' | 'array';

export interface InputValidation {
  pattern?: string;
  enum?: string[];
  min?: number;
  max?: number;
  fileExists?: boolean;
  /** Extensions with their dot, e.g. `.md`. */
  fileExtension?: string[];
}

export interface InputDef {
  name: string;
  type?: InputType;
  description?: string;
  required: boolean;
  default?: string;
  secret: boolean;
  validation?: InputValidation;
}

export interface Transition {
  when?: string;
  goto: string;
}

export type Backoff = 'constant' | 'linear' | 'exponential';

export interface RetryConfig {
  maxAttempts: number;
  initialDelayMs: number;
  maxDelayMs?: number;
  backoff: Backoff;
  multiplier: number;
  jitter: number;
  /** Empty: every non-zero exit code is retried. */
  retryableExitCodes: number[];
}

/** `mcp_proxy` of a step, with AWF's defaulting applied (intercept_builtins follows enable). */
export interface McpProxySettings {
  enable: boolean;
  interceptBuiltins: boolean;
  pluginTools: { plugin: string; expose: string[] }[];
  /** The step's own tool policy; it narrows `policy:` of `.awf/config.yaml` (docs/policy.md). */
  policy?: PolicySpec;
  /** Other MCP servers whose tools the proxy serves (names from .awf/config.yaml, or inline). */
  servers?: UpstreamServerRef[];
}

interface StepBase {
  name: string;
  description?: string;
  onSuccess?: string;
  onFailure?: string;
  transitions: Transition[];
  continueOnError: boolean;
  /** 0: no timeout. */
  timeoutMs: number;
  mcpProxy?: McpProxySettings;
  /** `hooks: {pre, post}`: run before and after the step; a failing hook is a warning (AWF). */
  hooks?: StepHooks;
}

/** One hook action: exactly one of `log` (a template written to stderr) or `command`. */
export interface HookAction {
  log?: string;
  command?: string;
}

export interface StepHooks {
  pre: HookAction[];
  post: HookAction[];
}

export type WorkflowHookName = 'workflow_start' | 'workflow_end' | 'workflow_error' | 'workflow_cancel';
export type WorkflowHooks = Partial<Record<WorkflowHookName, HookAction[]>>;

export interface CommandStep extends StepBase {
  type: 'step';
  /** Empty when `scriptFile` is given: exactly one of the two. */
  command: string;
  /** `script_file`: a template giving the path of a file whose text is the command (AWF, 1 MB). */
  scriptFile?: string;
  dir?: string;
  retry?: RetryConfig;
}

export interface AgentStep extends StepBase {
  type: 'agent';
  provider: string;
  /** Empty when `promptFile` is given: exactly one of the two. */
  prompt: string;
  /** `prompt_file`: a template giving the path of a file whose text is the prompt (AWF, 1 MB). */
  promptFile?: string;
  options: Record<string, unknown>;
  dir?: string;
  /** `conversation`: after the first answer, further user turns are read (stdin lines) until an empty one. */
  mode: 'single' | 'conversation';
  /** Sent on a conversation's first turn (AWF drops it in single mode; awf sends it whenever given). */
  systemPrompt?: string;
  /** `conversation: {continue_from}`: resume the named earlier agent step's session. */
  continueFrom?: string;
  /** `json`: the answer is parsed into `.states.X.JSON` (a run failure if it is not JSON); `text`: fences stripped. */
  outputFormat?: 'json' | 'text';
  /** `role`: an AGENTS.md whose text opens the system prompt (a name, or a path; a template). */
  role?: string;
  /** `skills`: SKILL.md texts put before the prompt, in this order. */
  skills?: SkillRef[];
}

/** A skill by name (looked up in the skill directories) or by path (from the workflow's directory). */
export type SkillRef = { name: string } | { path: string };

export interface TerminalStep extends StepBase {
  type: 'terminal';
  status: 'success' | 'failure';
  message?: string;
}

export type ParallelStrategy = 'all_succeed' | 'any_succeed' | 'best_effort';

/** `type: parallel`: branches are ordinary states; their own routing is ignored. */
export interface ParallelStep extends StepBase {
  type: 'parallel';
  branches: string[];
  strategy: ParallelStrategy;
  /** 0: every branch at once. */
  maxConcurrent: number;
  /** `fan_out: true`: on a queue worker, each branch runs as a child job on any worker (ADR 290). */
  fanOut?: boolean;
}

export const DEFAULT_MAX_ITERATIONS = 100;
export const MAX_ALLOWED_ITERATIONS = 10_000;

/** `type: for_each` (over `items`) and `type: while` (while `condition` holds). */
export interface LoopStep extends StepBase {
  type: 'for_each' | 'while';
  /** for_each: a JSON array text or a template giving one (a YAML list is stored as JSON). */
  items?: string;
  /** while: an expression, as in `when`. */
  condition?: string;
  body: string[];
  /** A fixed limit; absent with `maxIterationsExpr` (a template resolved at run time). */
  maxIterations?: number;
  maxIterationsExpr?: string;
  breakWhen?: string;
  onComplete?: string;
  /**
   * for_each `fan_out: true`: the items are independent and run at once, at most `maxConcurrent`
   * (0: all), each as a child job on any worker when the run is on a queue (ADR 290).
   */
  fanOut?: boolean;
  maxConcurrent?: number;
}

export const DEFAULT_CALL_TIMEOUT_MS = 300_000;
export const MAX_CALL_DEPTH = 10;

/** `type: call_workflow`: the fields are flat on the step, as AWF parses them. */
export interface CallWorkflowStep extends StepBase {
  type: 'call_workflow';
  workflow: string;
  /** Child input name → template. */
  inputs: Record<string, string>;
  /** Child output (declared output or step name) → name under the parent's `.states.X.Response`. */
  outputs: Record<string, string>;
}

/** `type: operation`: a plugin operation or a built-in one (`http.request`). */
export interface OperationStep extends StepBase {
  type: 'operation';
  operation: string;
  /** Strings at any depth are templates. */
  inputs: Record<string, unknown>;
}

export type Step = CommandStep | AgentStep | TerminalStep | ParallelStep | LoopStep | CallWorkflowStep | OperationStep;
export type ExecutableStep = Exclude<Step, TerminalStep>;

/** A child workflow's `outputs:` entry: `from` is a path such as `states.process.Output`. */
export interface WorkflowOutput {
  name: string;
  from: string;
}

/** Top-level `env`: AWF's list names variables that must be set; awf's mapping sets them for the run. */
export interface WorkflowEnv {
  required: string[];
  set: Record<string, string>;
}

export interface Workflow {
  /** The file name without `.yaml`: what `awf run <name>` looks up. */
  id: string;
  name: string;
  version?: string;
  description?: string;
  inputs: InputDef[];
  initial: string;
  /** In file order, inline `on_failure` terminals last. */
  steps: Step[];
  hooks: WorkflowHooks;
  outputs: WorkflowOutput[];
  author?: string;
  tags?: string[];
  env?: WorkflowEnv;
  /** Absolute path of the file, when loaded from one. */
  file?: string;
  /** Directory of the file; relative `dir:` values resolve against it. */
  sourceDir?: string;
  /** The installed workflow pack the file belongs to (`.awf.pack_name`; its scripts and prompts tiers). */
  pack?: string;
}

export function findStep(workflow: Workflow, name: string): Step | undefined {
  return workflow.steps.find((s) => s.name === name);
}

/** The states a step can lead to: transitions, parallel branches, loop body and exit, on_success, on_failure. */
export function nextStates(step: Step): string[] {
  const next = step.transitions.map((t) => t.goto);
  if (step.type === 'parallel') next.push(...step.branches);
  if (step.type === 'for_each' || step.type === 'while')
    next.push(...step.body, ...(step.onComplete ? [step.onComplete] : []));
  return [...next, ...[step.onSuccess, step.onFailure].filter((s): s is string => s !== undefined)];
}
