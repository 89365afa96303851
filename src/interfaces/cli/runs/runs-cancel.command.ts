import { Inject } from '@nestjs/common';
import { CommandRunner, Option, SubCommand } from 'nest-commander';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import { RUN_QUEUES, type RunQueues } from '../../../domain/ports/run-queue.port';
import { globalFlags, jsonLine } from '../global-flags';
import { queueUrl } from '../worker/queue-flag';

/** `awf runs cancel ID`: a queued run is removed; a running one is stopped by its worker (the step killed). */
@SubCommand({
  name: 'cancel',
  arguments: '<run-id>',
  description: 'Cancel a run on the queue (--queue or AWF_QUEUE_URL): waiting, or running on a worker',
})
export class RunsCancelCommand extends CommandRunner {
  constructor(@Inject(RUN_QUEUES) private readonly queues: RunQueues) {
    super();
  }

  async run([runId]: string[], options: { queue?: string }): Promise<void> {
    if (!runId)
      throw new AwfError(ErrorCodes.CLI_INVALID_ARGS, 'awf runs cancel needs a run id', {}, 'awf runs cancel <run-id>');
    const queue = await this.queues.client(queueUrl(options.queue));
    try {
      const outcome = await queue.cancel(runId);
      const format = globalFlags(this.command).format;
      if (format === 'json') process.stdout.write(jsonLine({ run_id: runId, cancelled: outcome }));
      else if (format !== 'quiet')
        process.stdout.write(
          outcome === 'removed'
            ? `run ${runId} cancelled before it started\n`
            : `run ${runId} is being cancelled: its worker stops the step in flight\n`,
        );
    } finally {
      await queue.close();
    }
  }

  @Option({ flags: '--queue <url>', description: 'the queue (default AWF_QUEUE_URL)' })
  parseQueue(value: string): string {
    return value;
  }
}
