import type { ValidationIssue } from '../validation-issue.model';
import type { Workflow } from '../workflow.model';

export interface WorkflowSummary {
  name: string;
  file: string;
  /** Which lookup directory it came from: `env`, `local` or `global`. */
  source: string;
  version?: string;
  description?: string;
  author?: string;
  tags?: string[];
}

export interface LoadedWorkflow {
  file: string;
  /** Absent when the file is too broken to map (not YAML, not a mapping). */
  workflow?: Workflow;
  /** Parse problems, all of them; structural rules run later in the validator. */
  issues: ValidationIssue[];
}

/**
 * Where workflows live. `load` takes a path (anything with a `/` or ending in `.yaml`) or a
 * name looked up in $AWF_WORKFLOWS_PATH, ./.awf/workflows, ~/.config/awf/workflows (first
 * hit wins) and rejects with `USER.WORKFLOW.NOT_FOUND` naming the places it looked.
 */
export interface WorkflowRepository {
  load(nameOrPath: string): Promise<LoadedWorkflow>;
  /**
   * The workflow a `call_workflow` names: `<fromDir>/<name>.yaml` when the caller's directory
   * has it, else `load(name)`. Rejects with `USER.WORKFLOW.NOT_FOUND` like `load`.
   */
  loadCalled(name: string, fromDir?: string): Promise<LoadedWorkflow>;
  /** `dirs`: only the workflows of these directories (acp-serve's workflows_dir), as source `env`. */
  list(dirs?: readonly string[]): Promise<WorkflowSummary[]>;
  searchPaths(): string[];
}

export const WORKFLOW_REPOSITORY = Symbol.for('awf.WorkflowRepository');
