import { Inject } from '@nestjs/common';
import { CommandRunner, Option, SubCommand } from 'nest-commander';
import { replay } from '../../../application/queue/run-events';
import { RUN_QUEUES, type RunQueues } from '../../../domain/ports/run-queue.port';
import type { SecretMasker } from '../../../domain/ports/secret-masker.port';
import { SECRET_MASKER } from '../../../domain/ports/tokens';
import { ProcessSignals } from '../../../infrastructure/core/process-signals.service';
import { colorEnabled, globalFlags } from '../global-flags';
import { endRun, failIfCancelled } from '../run/run-ending';
import { RunProgressRenderer } from '../run/run-progress.renderer';
import { queueUrl } from '../worker/queue-flag';

/** `awf runs follow ID`: a queued run's progress from its start, live, and its ending (exit code included). */
@SubCommand({
  name: 'follow',
  arguments: '<run-id>',
  description: 'Follow a run on the queue (--queue or AWF_QUEUE_URL) to its end, as `awf run` shows it',
})
export class RunsFollowCommand extends CommandRunner {
  constructor(
    @Inject(RUN_QUEUES) private readonly queues: RunQueues,
    @Inject(SECRET_MASKER) private readonly masker: SecretMasker,
    private readonly signals: ProcessSignals,
  ) {
    super();
  }

  async run([runId]: string[], options: { queue?: string }): Promise<void> {
    const flags = globalFlags(this.command);
    const queue = await this.queues.client(queueUrl(options.queue));
    const progress = new RunProgressRenderer(process.stderr, this.masker, {
      quiet: flags.quiet,
      color: colorEnabled(process.stderr, flags),
    });
    try {
      const seen = { started: false };
      const report = await queue.follow(runId, (e) => replay(e, progress, seen), this.signals.signal);
      if (!report) {
        process.stderr.write(`\nStopped following run ${runId}; it goes on on the queue.\n`);
        return;
      }
      const mask = (s: string): string => this.masker.mask(s);
      endRun(report, { flags, progress, mask, printed: false }, { resumable: false });
      failIfCancelled(report);
    } finally {
      progress.close();
      await queue.close();
    }
  }

  @Option({ flags: '--queue <url>', description: 'the queue (default AWF_QUEUE_URL)' })
  parseQueue(value: string): string {
    return value;
  }
}
