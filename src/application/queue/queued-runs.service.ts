import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { JobContext, RunJob } from '../../domain/ports/run-queue.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import type { RunObserver } from '../../domain/workflow/ports/run-observer.port';
import type { WorkflowFiles } from '../../domain/workflow/ports/workflow-files.port';
import type { WorkflowRepository } from '../../domain/workflow/ports/workflow-repository.port';
import type { RunReport } from '../../domain/workflow/run-report.model';
import type { BranchResult } from '../../domain/workflow/ports/branch-runner.port';
import type { WorkflowService } from '../workflow/workflow.service';
import { RunInputs } from '../workflow/run/run-inputs';
import { bundleFiles } from './run-bundle';
import { checkpointOf, PublishingObserver } from './run-events';
import { maskedJson } from '../../domain/model/masked-json';

export interface EnqueueRequest {
  target: string;
  /** `-i` values as given; secret inputs are refused (they never enter the queue). */
  inputs: Record<string, string>;
  projectInputs?: Record<string, unknown>;
  env: Record<string, string>;
  cwd: string;
  observer?: RunObserver;
}

/** The worker's side of a run: its environment (secret inputs come from it) and where step artifacts go. */
export interface JobRun {
  env: Record<string, string>;
  runsDir: string;
}

/** The environment variable a worker reads a secret input from: `AWF_INPUT_<NAME>`. */
export function secretInputVariable(name: string): string {
  return `AWF_INPUT_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/**
 * Queued runs, both ends: the job `awf run --queue` sends (validated as `awf run` validates,
 * with its files), and what a worker does with one, through the same WorkflowService.
 */
export class QueuedRuns {
  constructor(
    private readonly workflows: WorkflowService,
    private readonly repository: WorkflowRepository,
    private readonly files: WorkflowFiles,
    private readonly masker: SecretMasker,
  ) {}

  async prepare(request: EnqueueRequest): Promise<RunJob> {
    const { workflow, file } = await this.workflows.loadValid(request.target, request.observer);
    for (const def of workflow.inputs.filter((d) => d.secret && request.inputs[d.name] !== undefined)) {
      throw new AwfError(
        ErrorCodes.QUEUE_SECRET_INPUT,
        `input "${def.name}" is secret: its value is not sent through the queue`,
        { input: def.name },
        `Set ${secretInputVariable(def.name)} in the workers' environment and leave -i ${def.name} out.`,
      );
    }
    // The inputs as a local run resolves them (flags, `@prompts/`, the project's, defaults), checked
    // here so a bad one is refused before anything is queued; secret ones are the workers' to give.
    const inputs = new RunInputs(this.masker, this.files);
    const open = { ...workflow, inputs: workflow.inputs.filter((d) => !d.secret) };
    const resolved = inputs.resolve(open, inputs.flags(request), request);
    const bundle = await bundleFiles(workflow, file, this.repository, this.files, request.env);
    return {
      run_id: randomUUID(),
      workflow: workflow.name,
      ...bundle,
      inputs: resolved,
      enqueued_at: new Date().toISOString(),
    };
  }

  /**
   * Runs a job whose files are in `context.dir`, from the checkpoint of earlier attempts. When the
   * worker drains, the run stops before its next step (a `cancelled` report the pool hands back).
   */
  async execute(job: RunJob, run: JobRun, context: JobContext): Promise<RunReport> {
    const target = join(context.dir, job.entry);
    const mask = (s: string): string => this.masker.mask(s);
    const { branches } = context;
    const report = await this.workflows.runQueued({
      target,
      runId: job.run_id,
      ...checkpointOf(context.previous),
      inputs: await this.inputsOf(job, target, run),
      // The states a child job carries are masked: a secret never enters the queue (ADR 290).
      ...(branches && {
        branches: {
          where: branches.where,
          run: (batch) => branches.run({ ...batch, states: maskedJson(batch.states, { mask }) }),
        },
      }),
      env: run.env,
      cwd: context.dir,
      runsDir: run.runsDir,
      signal: context.signal,
      observer: new PublishingObserver(context.publish, context.worker, mask),
      gate: { pausesAt: () => context.draining(), before: async () => 'abort' },
    });
    return maskedJson(report, { mask });
  }

  /** A child job (ADR 290): its task, with its steps published to its run's events; its result masked. */
  async executeTask(job: RunJob, run: JobRun, context: JobContext): Promise<BranchResult> {
    const part = job.fan_out!;
    const target = join(context.dir, job.entry);
    const mask = (s: string): string => this.masker.mask(s);
    const result = await this.workflows.runTask({
      target,
      runId: part.parent_run,
      step: part.step,
      task: part.task,
      states: part.states,
      inputs: await this.inputsOf(job, target, run),
      env: run.env,
      cwd: context.dir,
      runsDir: run.runsDir,
      signal: context.signal,
      observer: new PublishingObserver(context.publish, context.worker, mask),
    });
    return maskedJson(result, { mask });
  }

  /** The job's inputs, and the secret ones from the worker's environment. */
  private async inputsOf(job: RunJob, target: string, run: JobRun): Promise<Record<string, string>> {
    const workflow = await this.workflows.describe(target);
    const secrets: Record<string, string> = {};
    for (const def of workflow.inputs.filter((d) => d.secret && job.inputs[d.name] === undefined)) {
      const value = run.env[secretInputVariable(def.name)];
      if (value !== undefined) secrets[def.name] = value;
    }
    return { ...job.inputs, ...secrets };
  }
}
