import type { FileProbe } from '../../domain/ports/file-probe.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import type { RunObserver } from '../../domain/workflow/ports/run-observer.port';
import type { LoadedWorkflow, WorkflowRepository, WorkflowSummary } from '../../domain/workflow/ports/workflow-repository.port';
import type { RunReport } from '../../domain/workflow/run-report.model';
import { formatIssue, type ValidationIssue } from '../../domain/workflow/validation-issue.model';
import { resolveInputs } from './input-resolver';
import type { WorkflowRunner } from './workflow-runner.service';
import { type ValidationReport, validationError, validationReport } from './validation-report';
import type { WorkflowValidator } from './workflow-validator.service';

export { type ValidationReport, validationError } from './validation-report';

export interface RunRequest {
  target: string;
  inputs: Record<string, string>;
  projectInputs?: Record<string, unknown>;
  signal: AbortSignal;
  observer?: RunObserver;
  cwd: string;
  env: Record<string, string>;
  runsDir: string;
}

/** What the CLI commands call: one method per command. */
export class WorkflowService {
  constructor(
    private readonly repository: WorkflowRepository,
    private readonly validator: WorkflowValidator,
    private readonly runner: WorkflowRunner,
    private readonly masker: SecretMasker,
    private readonly files: FileProbe,
  ) {}

  /** `strict`: every warning (an unknown key, an unknown provider, …) counts as an error. */
  async validate(target: string, options: { strict?: boolean } = {}): Promise<ValidationReport> {
    const loaded = await this.repository.load(target);
    const issues = await this.validator.validate(loaded);
    return this.report(loaded, options.strict ? issues.map((i) => ({ ...i, severity: 'error' as const })) : issues);
  }

  /** Validates as `awf validate` does, then runs; invalid workflows never start a step. */
  async run(request: RunRequest): Promise<RunReport> {
    const loaded = await this.repository.load(request.target);
    const validation = this.report(loaded, await this.validator.validate(loaded));
    if (!validation.valid || !loaded.workflow) throw validationError(validation);
    const workflow = loaded.workflow;
    const inputs = resolveInputs(workflow.inputs, request.inputs, request.projectInputs ?? {}, this.files);
    this.masker.add(...workflow.inputs.filter((d) => d.secret && inputs[d.name] !== undefined).map((d) => inputs[d.name]));
    validation.warnings.forEach((w) => request.observer?.warn?.(formatIssue(w)));
    return this.runner.run(workflow, {
      inputs, env: request.env, signal: request.signal, cwd: request.cwd, runsDir: request.runsDir, observer: request.observer,
    });
  }

  list(): Promise<WorkflowSummary[]> {
    return this.repository.list();
  }

  searchPaths(): string[] {
    return this.repository.searchPaths();
  }

  private report(loaded: LoadedWorkflow, issues: ValidationIssue[]): ValidationReport {
    return validationReport(loaded, issues);
  }
}
