import type { PolicySpec } from '../policy/policy.model';
/**
 * The workflow model: AWF's YAML format after parsing, before any interpolation.
 * Field names follow the YAML keys so a message can point at `states.<step>.<key>`.
 */
export type InputType = 'string' | 'integer' | 'boolean';

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
}

export interface CommandStep extends StepBase {
  type: 'step';
  command: string;
  dir?: string;
  retry?: RetryConfig;
}

export interface AgentStep extends StepBase {
  type: 'agent';
  provider: string;
  prompt: string;
  options: Record<string, unknown>;
  dir?: string;
}

export interface TerminalStep extends StepBase {
  type: 'terminal';
  status: 'success' | 'failure';
  message?: string;
}

export type Step = CommandStep | AgentStep | TerminalStep;

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
  /** Absolute path of the file, when loaded from one. */
  file?: string;
  /** Directory of the file; relative `dir:` values resolve against it. */
  sourceDir?: string;
}

export function findStep(workflow: Workflow, name: string): Step | undefined {
  return workflow.steps.find((s) => s.name === name);
}
