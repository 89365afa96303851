import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Inject } from '@nestjs/common';
import { Command, CommandRunner, Option } from 'nest-commander';
import { QueuedRuns } from '../../../application/queue/queued-runs.service';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import { RUN_INDEX, type RunIndex } from '../../../domain/ports/run-index.port';
import { METRICS_RECORDER, type MetricsRecorder } from '../../../domain/ports/metrics.port';
import { RUN_QUEUES, type RunQueues } from '../../../domain/ports/run-queue.port';
import { TELEMETRY_CONTROL, type TelemetryControl } from '../../../domain/ports/telemetry-control.port';
import type { ProjectConfig } from '../../../infrastructure/config/project-config.loader';
import { PROJECT_CONFIG } from '../../../infrastructure/config/project-config.module';
import { resolveTelemetrySettings } from '../../../infrastructure/telemetry/telemetry-settings';
import { ApprovalDesk } from '../../../infrastructure/policy/approval-desk';
import { ProcessSignals } from '../../../infrastructure/core/process-signals.service';
import { runsDir } from '../../../infrastructure/workflow/workflow-paths';
import { stringEnv } from '../run/run-session.command-base';
import { queueUrl } from './queue-flag';

interface WorkerOptions {
  queue?: string;
  concurrency?: number;
  workdir?: string;
}

/**
 * `awf worker`: takes runs from the queue and runs them with the workflow service `awf run` uses,
 * each in `<workdir>/<run id>/`. SIGTERM or Ctrl-C: no new run; runs in flight finish their step
 * and go back to the queue, where another worker resumes them at the next step.
 */
@Command({
  name: 'worker',
  description: 'Take runs from a queue (--queue or AWF_QUEUE_URL) and run them; stops cleanly on SIGTERM',
})
export class WorkerCommand extends CommandRunner {
  constructor(
    @Inject(RUN_QUEUES) private readonly queues: RunQueues,
    private readonly queued: QueuedRuns,
    private readonly signals: ProcessSignals,
    @Inject(RUN_INDEX) private readonly index: RunIndex,
    @Inject(TELEMETRY_CONTROL) private readonly telemetry: TelemetryControl,
    @Inject(METRICS_RECORDER) private readonly metrics: MetricsRecorder,
    @Inject(PROJECT_CONFIG) private readonly project: ProjectConfig,
    private readonly desk: ApprovalDesk,
  ) {
    super();
  }

  async run(_args: string[], options: WorkerOptions): Promise<void> {
    const workdir = resolve(options.workdir ?? process.cwd());
    mkdirSync(workdir, { recursive: true });
    const concurrency = options.concurrency ?? 1;
    const log = (line: string): void => void process.stderr.write(`${new Date().toISOString()} ${line}\n`);
    const env = stringEnv(process.env);
    // The history is opened (and migrated) before any job is taken: one that does not answer stops the worker here.
    const history = await this.index.migrate();
    // The project's telemetry, as `awf run` has it: runs' spans, and the queue's metrics (awf.queue.*).
    await this.telemetry.start(resolveTelemetrySettings({ project: this.project.telemetry }));
    const pool = await this.queues.worker(queueUrl(options.queue), {
      concurrency,
      workdir,
      log,
      metrics: this.metrics,
      handler: (job, context) => this.queued.execute(job, { env, runsDir: runsDir() }, context),
      // Child jobs: the branches and items of any run's `fan_out: true` steps (ADR 290).
      branchHandler: (job, context) => this.queued.executeTask(job, { env, runsDir: runsDir() }, context),
    });
    // Nobody sits at this terminal: a step's question goes to whoever follows the run (`awf serve`, ADR 310).
    this.desk.person = (request) => pool.ask(request, this.desk.timeoutMs);
    log(
      `awf worker taking runs from ${pool.label} (concurrency ${concurrency}, workdir ${workdir},` +
        ` history ${history.history})`,
    );
    await this.signals.stopped();
    log('stopping: no new run; runs in flight finish their step and go back to the queue');
    await pool.stop();
    log('stopped');
  }

  @Option({
    flags: '--queue <url>',
    description: 'the queue: redis://[user:password@]host:port or postgres://…/db (default AWF_QUEUE_URL)',
  })
  parseQueue(value: string): string {
    return value;
  }

  @Option({ flags: '--concurrency <n>', description: 'runs at the same time (default 1)' })
  parseConcurrency(value: string): number {
    const n = Number(value);
    if (Number.isInteger(n) && n >= 1 && n <= 256) return n;
    throw new AwfError(
      ErrorCodes.CLI_INVALID_ARGS,
      `--concurrency must be a whole number from 1 to 256, not "${value}"`,
      { value },
      'For example: --concurrency 4',
    );
  }

  @Option({
    flags: '--workdir <dir>',
    description: "where each run gets its own directory (default: the worker's cwd)",
  })
  parseWorkdir(value: string): string {
    return value;
  }
}
