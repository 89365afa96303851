import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { RunIndex, RunSummary, StepRecord } from '../../domain/ports/run-index.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import type { TranscriptStore } from '../../domain/ports/transcript-store.port';
import type { RunObserver } from '../../domain/workflow/ports/run-observer.port';
import type { WorkflowRepository, WorkflowSummary } from '../../domain/workflow/ports/workflow-repository.port';
import type { WorkflowFiles } from '../../domain/workflow/ports/workflow-files.port';
import type { RunReport } from '../../domain/workflow/run-report.model';
import { formatIssue } from '../../domain/workflow/validation-issue.model';
import type { StepStateData } from '../../domain/workflow/interpolation.types';
import type { StepGate } from '../../domain/workflow/ports/step-gate.port';
import type { BranchResult, BranchRunner, BranchTask } from '../../domain/workflow/ports/branch-runner.port';
import { findStep, type Workflow } from '../../domain/workflow/workflow.model';
import { type DryRunPlan, dryRunPlan } from './run/dry-run-plan';
import { stepEventsPath } from './steps/agent-step.executor';
import { planResume } from './run/resume-plan';
import { type InputSources, RunInputs } from './run/run-inputs';
import { RunJournal } from './run/run-journal';
import { TranscriptObserver } from './run/transcript.observer';
import type { RunOptions, WorkflowRunner } from './run/workflow-runner.service';
import { type ValidationReport, validationError, validationReport } from './validation/validation-report';
import { loadIssues, type WorkflowValidator } from './validation/workflow-validator.service';

export { type ValidationReport, validationError, validateVerdict } from './validation/validation-report';

export interface ResumeRequest extends Omit<RunRequest, 'target'> {
  /** A run id or a unique prefix of one. */
  runId: string;
  from?: string;
}

export interface RunRequest extends InputSources {
  target: string;
  signal: AbortSignal;
  observer?: RunObserver;
  runsDir: string;
  userInput?: (step: string) => Promise<string | undefined>;
  /** `--interactive`: asked before each top-level step. */
  gate?: StepGate;
  /** `--debug-transcript-mirror`: every transcript event is appended to this file as well. */
  transcriptMirror?: string;
}

/** A run a worker took from the queue: its inputs as given (secret ones from the worker's env). */
export interface QueuedRunRequest extends RunRequest {
  runId: string;
  /** The steps earlier attempts recorded, and the one that was running when they stopped. */
  done: StepRecord[];
  current?: string;
  /** Where its `fan_out: true` steps send their tasks: child jobs (ADR 290). */
  branches?: BranchRunner;
}

/** A child job on a worker: one task of run `runId`'s step `step`, on the states the run had. */
export interface BranchTaskRequest extends Omit<RunRequest, 'gate' | 'transcriptMirror' | 'userInput'> {
  runId: string;
  step: string;
  task: BranchTask;
  states: Record<string, StepStateData>;
}

/** `awf run -s <step> -m states.x.Output=…`: one step alone, on mocked states. */
export interface StepRequest extends RunRequest {
  step: string;
  mocks: Record<string, StepStateData>;
}

/** What the CLI commands call: one method per command. */
export class WorkflowService {
  private readonly inputs: RunInputs;

  constructor(
    private readonly repository: WorkflowRepository,
    private readonly validator: WorkflowValidator,
    private readonly runner: WorkflowRunner,
    private readonly masker: SecretMasker,
    private readonly files: WorkflowFiles,
    private readonly index?: RunIndex,
    /** `history.max_output_bytes` of .awf/config.yaml: a step's stdout and stderr as the history keeps them. */
    private readonly historyOutputBytes?: number,
    private readonly transcripts?: TranscriptStore,
  ) {
    this.inputs = new RunInputs(masker, files);
  }

  /** `strict`: every warning (an unknown key, an unknown provider, …) counts as an error. */
  async validate(
    target: string,
    options: { strict?: boolean; skipPlugins?: boolean; pluginStartMs?: number } = {},
  ): Promise<ValidationReport> {
    const loaded = await this.repository.load(target);
    const issues = await this.validator.validate(loaded, options);
    const report = validationReport(
      loaded,
      options.strict ? issues.map((i) => ({ ...i, severity: 'error' as const })) : issues,
    );
    return { ...report, loads: !loadIssues(loaded).some((i) => i.severity === 'error') };
  }

  /** Validates as `awf validate` does, then runs; invalid workflows never start a step. */
  async run(request: RunRequest): Promise<RunReport> {
    const { workflow, file } = await this.loadValid(request.target, request.observer);
    const inputs = await this.inputs.of(workflow, request);
    return this.execute(workflow, file, inputs, request, { runId: randomUUID(), seq: 0 });
  }

  /** `awf run <wf> --help`: the workflow as loaded (its description and inputs). */
  async describe(target: string): Promise<Workflow> {
    const loaded = await this.repository.load(target);
    if (loaded.workflow) return loaded.workflow;
    throw validationError(validationReport(loaded, await this.validator.validate(loaded)));
  }

  /** `--dry-run`: the plan with its commands interpolated; nothing runs, nothing is recorded. */
  async dryRun(
    request: Pick<RunRequest, 'target' | 'inputs' | 'projectInputs' | 'observer' | 'env' | 'cwd'>,
  ): Promise<DryRunPlan> {
    const { workflow } = await this.loadValid(request.target, request.observer);
    const inputs = this.inputs.resolve(workflow, this.inputs.flags(request), request);
    this.inputs.maskSecrets(workflow, inputs);
    return dryRunPlan(workflow, inputs, request.inputs);
  }

  /** `-s`: the step alone, with the mocked states; not recorded in the history (nothing to resume). */
  async runStep(request: StepRequest): Promise<RunReport> {
    const { workflow } = await this.loadValid(request.target, request.observer);
    const step = findStep(workflow, request.step);
    if (!step || step.type === 'terminal') {
      const names = workflow.steps.filter((s) => s.type !== 'terminal').map((s) => s.name);
      throw new AwfError(
        ErrorCodes.CLI_INVALID_ARGS,
        `--step "${request.step}" is not a step of ${workflow.name}${step ? ' that can run (a terminal)' : ''}`,
        { step: request.step, steps: names },
        `Pick one of: ${names.join(', ')}.`,
      );
    }
    const inputs = await this.inputs.of(workflow, request);
    this.inputs.maskSecrets(workflow, inputs);
    return this.runner.run(workflow, {
      inputs,
      env: request.env,
      signal: request.signal,
      cwd: request.cwd,
      runsDir: request.runsDir,
      observer: request.observer,
      userInput: request.userInput,
      runId: randomUUID(),
      startAt: step.name,
      seedStates: request.mocks,
      only: true,
    });
  }

  /** `awf resume`: the same workflow file, the stored inputs (flags win), from the failed step on. */
  async resume(request: ResumeRequest): Promise<RunReport> {
    const index = this.requireIndex();
    const run = await index.get(await index.resolve(request.runId));
    const { workflow, file } = await this.loadValid(run.file, request.observer);
    const plan = planResume(run, workflow, request.from);
    const inputs = this.inputs.resolve(workflow, { ...run.inputs, ...this.inputs.flags(request) }, request);
    return this.execute(
      workflow,
      file,
      inputs,
      { ...request, cwd: this.files.exists(run.cwd) ? run.cwd : request.cwd },
      { runId: run.run_id, ...plan },
    );
  }

  /**
   * A queued run on a worker: the id the queue gave it and, when an earlier worker died or
   * handed it back, the steps it recorded (resumed as `awf resume` resumes a killed run).
   */
  async runQueued(request: QueuedRunRequest): Promise<RunReport> {
    const { workflow, file } = await this.loadValid(request.target, request.observer);
    const inputs = this.inputs.resolve(workflow, request.inputs, request);
    if (!request.done.length && !request.current)
      return this.execute(workflow, file, inputs, request, { runId: request.runId, seq: 0 });
    const run = { run_id: request.runId, status: 'interrupted' as const, step_records: request.done };
    const plan = planResume({ ...run, current_step: request.current }, workflow);
    return this.execute(workflow, file, inputs, request, { runId: request.runId, ...plan });
  }

  /** A child job's task: not a run of its own (no history, no hooks); what it set goes back to its run. */
  async runTask(request: BranchTaskRequest): Promise<BranchResult> {
    // Loaded quietly: the run's warnings were said when it started, not again per child.
    const { workflow } = await this.loadValid(request.target);
    const inputs = this.inputs.resolve(workflow, request.inputs, request);
    this.inputs.maskSecrets(workflow, inputs);
    const { env, signal, cwd, runsDir, observer, runId, states } = request;
    const options = { inputs, env, signal, cwd, runsDir, observer, runId, seedStates: states };
    return this.runner.runTask(workflow, options, request.step, request.task);
  }

  /** Runs `resume` can continue, newest first: failed, cancelled, or killed mid-step. */
  async resumable(limit = 50): Promise<RunSummary[]> {
    const index = this.requireIndex();
    const lists = await Promise.all(
      ['failure', 'cancelled', 'interrupted'].map((status) => index.list({ status, limit })),
    );
    return lists
      .flat()
      .sort((a, b) => b.started_at.localeCompare(a.started_at))
      .slice(0, limit);
  }

  /** The workflow as `awf run` takes it: loaded and validated (warnings to the observer). */
  async loadValid(target: string, observer?: RunObserver): Promise<{ workflow: Workflow; file: string }> {
    const loaded = await this.repository.load(target);
    const validation = validationReport(loaded, await this.validator.validate(loaded));
    if (!validation.valid || !loaded.workflow) throw validationError(validation);
    validation.warnings.forEach((w) => observer?.warn?.(formatIssue(w)));
    return { workflow: loaded.workflow, file: loaded.file };
  }

  private async execute(
    workflow: Workflow,
    file: string,
    inputs: Record<string, string>,
    request: Omit<RunRequest, 'target' | 'inputs'> & { branches?: BranchRunner },
    start: { runId: string; seq: number; startAt?: string; states?: RunOptions['seedStates'] },
  ): Promise<RunReport> {
    const secret = this.inputs.maskSecrets(workflow, inputs);
    const runDir = join(request.runsDir, start.runId);
    // Secret inputs are never written down: a resumed run asks for them again.
    const kept = Object.fromEntries(Object.entries(inputs).filter(([k]) => !secret.has(k)));
    const run = { run_id: start.runId, workflow: workflow.name, file, cwd: request.cwd, inputs: kept };
    const eventsPath = (step: string) => stepEventsPath(runDir, step);
    const journal =
      this.index &&
      (await RunJournal.begin(
        this.index,
        run,
        start.seq,
        eventsPath,
        this.masker,
        request.observer,
        this.historyOutputBytes,
      ));
    // The transcript writes first and passes everything on, so it sees what the journal sees.
    const transcript = TranscriptObserver.open(this.transcripts, this.masker, start.runId, request, journal);
    let report: RunReport;
    try {
      report = await this.runner.run(workflow, {
        inputs,
        env: request.env,
        signal: request.signal,
        cwd: request.cwd,
        runsDir: request.runsDir,
        observer: transcript ?? journal ?? request.observer,
        runId: start.runId,
        startAt: start.startAt,
        seedStates: start.states,
        userInput: request.userInput,
        gate: request.gate,
        branches: request.branches,
      });
      transcript?.finished(report);
    } finally {
      transcript?.close();
    }
    await journal?.finished(report);
    return report;
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

  list(dirs?: readonly string[]): Promise<WorkflowSummary[]> {
    return this.repository.list(dirs);
  }

  searchPaths(): string[] {
    return this.repository.searchPaths();
  }
}
