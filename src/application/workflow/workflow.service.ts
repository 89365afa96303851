import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { AwfError, isAwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { FileProbe } from '../../domain/ports/file-probe.port';
import type { RunIndex, RunStart, RunSummary } from '../../domain/ports/run-index.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import type { RunObserver } from '../../domain/workflow/ports/run-observer.port';
import type {
  LoadedWorkflow,
  WorkflowRepository,
  WorkflowSummary,
} from '../../domain/workflow/ports/workflow-repository.port';
import type { RunReport } from '../../domain/workflow/run-report.model';
import { formatIssue, type ValidationIssue } from '../../domain/workflow/validation-issue.model';
import { resolveInputs } from './input-resolver';
import type { Workflow } from '../../domain/workflow/workflow.model';
import { stepEventsPath } from './agent-step.executor';
import { planResume } from './resume-plan';
import { RunJournal } from './run-journal';
import type { RunOptions, WorkflowRunner } from './workflow-runner.service';
import { type ValidationReport, validationError, validationReport } from './validation-report';
import type { WorkflowValidator } from './workflow-validator.service';

export { type ValidationReport, validationError } from './validation-report';

export interface ResumeRequest extends Omit<RunRequest, 'target'> {
  /** A run id or a unique prefix of one. */
  runId: string;
  from?: string;
}

export interface RunRequest {
  target: string;
  inputs: Record<string, string>;
  projectInputs?: Record<string, unknown>;
  signal: AbortSignal;
  observer?: RunObserver;
  cwd: string;
  env: Record<string, string>;
  runsDir: string;
  userInput?: (step: string) => Promise<string | undefined>;
}

/** What the CLI commands call: one method per command. */
export class WorkflowService {
  constructor(
    private readonly repository: WorkflowRepository,
    private readonly validator: WorkflowValidator,
    private readonly runner: WorkflowRunner,
    private readonly masker: SecretMasker,
    private readonly files: FileProbe,
    private readonly index?: RunIndex,
  ) {}

  /** `strict`: every warning (an unknown key, an unknown provider, …) counts as an error. */
  async validate(target: string, options: { strict?: boolean } = {}): Promise<ValidationReport> {
    const loaded = await this.repository.load(target);
    const issues = await this.validator.validate(loaded);
    return this.report(loaded, options.strict ? issues.map((i) => ({ ...i, severity: 'error' as const })) : issues);
  }

  /** Validates as `awf validate` does, then runs; invalid workflows never start a step. */
  async run(request: RunRequest): Promise<RunReport> {
    const { workflow, file } = await this.loadValid(request.target, request.observer);
    return this.execute(
      workflow,
      file,
      resolveInputs(workflow.inputs, request.inputs, request.projectInputs ?? {}, this.files),
      request,
      { runId: randomUUID(), seq: 0 },
    );
  }

  /** `awf resume`: the same workflow file, the stored inputs (flags win), from the failed step on. */
  async resume(request: ResumeRequest): Promise<RunReport> {
    const index = this.requireIndex();
    const run = index.get(index.resolve(request.runId));
    const { workflow, file } = await this.loadValid(run.file, request.observer);
    const plan = planResume(run, workflow, request.from);
    const inputs = resolveInputs(
      workflow.inputs,
      { ...run.inputs, ...request.inputs },
      request.projectInputs ?? {},
      this.files,
    );
    return this.execute(
      workflow,
      file,
      inputs,
      { ...request, cwd: this.files.exists(run.cwd) ? run.cwd : request.cwd },
      { runId: run.run_id, ...plan },
    );
  }

  /** Runs `resume` can continue, newest first: failed, cancelled, or killed mid-step. */
  resumable(limit = 50): RunSummary[] {
    const index = this.requireIndex();
    return ['failure', 'cancelled', 'interrupted']
      .flatMap((status) => index.list({ status, limit }))
      .sort((a, b) => b.started_at.localeCompare(a.started_at))
      .slice(0, limit);
  }

  private async loadValid(target: string, observer?: RunObserver): Promise<{ workflow: Workflow; file: string }> {
    const loaded = await this.repository.load(target);
    const validation = this.report(loaded, await this.validator.validate(loaded));
    if (!validation.valid || !loaded.workflow) throw validationError(validation);
    validation.warnings.forEach((w) => observer?.warn?.(formatIssue(w)));
    return { workflow: loaded.workflow, file: loaded.file };
  }

  private async execute(
    workflow: Workflow,
    file: string,
    inputs: Record<string, string>,
    request: Omit<RunRequest, 'target' | 'inputs'>,
    start: { runId: string; seq: number; startAt?: string; states?: RunOptions['seedStates'] },
  ): Promise<RunReport> {
    const secret = new Set(workflow.inputs.filter((d) => d.secret).map((d) => d.name));
    this.masker.add(...[...secret].filter((name) => inputs[name] !== undefined).map((name) => inputs[name]));
    const runDir = join(request.runsDir, start.runId);
    // Secret inputs are never written down: a resumed run asks for them again.
    const kept = Object.fromEntries(Object.entries(inputs).filter(([k]) => !secret.has(k)));
    const indexed = this.begin(
      { run_id: start.runId, workflow: workflow.name, file, cwd: request.cwd, inputs: kept },
      request.observer,
    );
    const journal =
      indexed &&
      new RunJournal(indexed, start.runId, start.seq, (step) => stepEventsPath(runDir, step), request.observer);
    const report = await this.runner.run(workflow, {
      inputs,
      env: request.env,
      signal: request.signal,
      cwd: request.cwd,
      runsDir: request.runsDir,
      observer: journal ?? request.observer,
      runId: start.runId,
      startAt: start.startAt,
      seedStates: start.states,
      userInput: request.userInput,
    });
    journal?.finished(report);
    return report;
  }

  /**
   * Records the run in the history. Without SQLite's native build (an install whose npm skipped
   * better-sqlite3's build script) the run goes on unrecorded, with one warning: the history is an
   * index of runs, and losing it must not stop a user from running anything. Any other failure to
   * write it stops the run before its first step.
   */
  private begin(run: Omit<RunStart, 'started_at'>, observer?: RunObserver): RunIndex | undefined {
    if (!this.index) return undefined;
    try {
      this.index.begin({ ...run, started_at: new Date().toISOString() });
      return this.index;
    } catch (err) {
      if (!isAwfError(err) || err.code !== ErrorCodes.HISTORY_UNAVAILABLE) throw err;
      observer?.warn?.(`${err.message}; this run is not recorded in the history. ${err.hint ?? ''}`.trim());
      return undefined;
    }
  }

  private requireIndex(): RunIndex {
    if (this.index) return this.index;
    throw new AwfError(
      ErrorCodes.HISTORY_UNAVAILABLE,
      'this awf has no run history',
      {},
      'Resume needs the HistoryModule (the full CLI).',
    );
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
