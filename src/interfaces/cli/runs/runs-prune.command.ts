import { Inject } from '@nestjs/common';
import { CommandRunner, Option, SubCommand } from 'nest-commander';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import { RUN_INDEX, type RunIndex } from '../../../domain/ports/run-index.port';
import { TRANSCRIPT_STORE, type TranscriptStore } from '../../../domain/ports/transcript-store.port';
import { globalFlags, jsonLine } from '../global-flags';
import { instantOf } from './time-filter';

/** `awf runs prune --older-than 30d`: forgets finished runs and removes their directories and transcripts. */
@SubCommand({
  name: 'prune',
  description: 'Delete finished runs started before --older-than (history rows, run directories, transcripts)',
})
export class RunsPruneCommand extends CommandRunner {
  constructor(
    @Inject(RUN_INDEX) private readonly index: RunIndex,
    @Inject(TRANSCRIPT_STORE) private readonly transcripts: TranscriptStore,
  ) {
    super();
  }

  async run(_args: string[], options: { olderThan?: string }): Promise<void> {
    if (!options.olderThan) {
      throw new AwfError(
        ErrorCodes.CLI_INVALID_ARGS,
        'awf runs prune needs --older-than',
        {},
        'For example: awf runs prune --older-than 30d',
      );
    }
    const removed = await this.index.prune(options.olderThan);
    removed.forEach((id) => this.transcripts.remove(id));
    const format = globalFlags(this.command).format;
    if (format === 'json') process.stdout.write(jsonLine({ removed, before: options.olderThan }));
    else if (format !== 'quiet')
      process.stdout.write(
        `removed ${removed.length} run${removed.length === 1 ? '' : 's'} started before ${options.olderThan}\n`,
      );
  }

  @Option({ flags: '--older-than <age|date>', description: 'an age (30d, 12h, 2w) or a date; running runs are kept' })
  parseOlderThan(value: string): string {
    return instantOf(value, '--older-than');
  }
}
