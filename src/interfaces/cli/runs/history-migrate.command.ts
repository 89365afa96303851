import { Inject } from '@nestjs/common';
import { CommandRunner, SubCommand } from 'nest-commander';
import { RUN_INDEX, type RunIndex } from '../../../domain/ports/run-index.port';
import { globalFlags, jsonLine } from '../global-flags';

/**
 * `awf history migrate`: brings the history (history.db, or --history's PostgreSQL) to this
 * awf's schema and says what it did. Every command that reads the history does the same on first
 * use; this one is for doing it on purpose, e.g. once before a fleet of workers starts.
 */
@SubCommand({ name: 'migrate', description: "Bring the run history to this awf's schema (a copy of history.db first)" })
export class HistoryMigrateCommand extends CommandRunner {
  constructor(@Inject(RUN_INDEX) private readonly index: RunIndex) {
    super();
  }

  async run(): Promise<void> {
    const done = await this.index.migrate();
    const format = globalFlags(this.command).format;
    if (format === 'json') return void process.stdout.write(jsonLine(done));
    if (format === 'quiet') return;
    const lines = done.applied.length
      ? [
          `migrated ${done.history} to ${done.version}: applied ${done.applied.join(', ')}`,
          ...(done.backup ? [`the file as it was is kept in ${done.backup}`] : []),
        ]
      : [`${done.history} is up to date (${done.version})`];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}
