import { Inject } from '@nestjs/common';
import { Command, CommandRunner } from 'nest-commander';
import { RUN_INDEX, type RunIndex } from '../../../domain/ports/run-index.port';
import { globalFlags } from '../global-flags';
import { renderRunStatus } from './runs.renderer';

/** `awf status <id>`: where a run is (or ended), step by step; a unique id prefix is enough. */
@Command({
  name: 'status',
  arguments: '<run-id>',
  description: 'Show the state of a run, step by step (a unique id prefix is enough)',
})
export class StatusCommand extends CommandRunner {
  constructor(@Inject(RUN_INDEX) private readonly index: RunIndex) {
    super();
  }

  async run([id]: string[]): Promise<void> {
    const run = await this.index.get(await this.index.resolve(id));
    process.stdout.write(renderRunStatus(run, globalFlags(this.command).format));
  }
}
