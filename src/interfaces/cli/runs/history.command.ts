import { Inject } from '@nestjs/common';
import { Command, CommandRunner, Option, SubCommand } from 'nest-commander';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import { RUN_INDEX, type RunIndex, type RunQuery } from '../../../domain/ports/run-index.port';
import { globalFlags } from '../global-flags';
import { HistoryMigrateCommand } from './history-migrate.command';
import { historyStats, renderHistoryStats } from './history-stats.renderer';
import { renderRunList } from './runs.renderer';
import { instantOf, positiveInt } from './time-filter';

const STATUSES = ['running', 'interrupted', 'success', 'failure', 'cancelled'];
/** AWF's words for the same statuses (its `history -s failed`). */
const AWF_STATUSES: Record<string, string> = { completed: 'success', failed: 'failure' };

/** The filters of `awf history` and `awf runs list`. */
abstract class RunQueryCommand extends CommandRunner {
  constructor(@Inject(RUN_INDEX) protected readonly index: RunIndex) {
    super();
  }

  async run(_args: string[], options: RunQuery & { stats?: boolean }): Promise<void> {
    const { stats, ...query } = options;
    const runs = await this.index.list(query);
    const format = globalFlags(this.command).format;
    process.stdout.write(stats ? renderHistoryStats(historyStats(runs), format) : renderRunList(runs, format));
  }

  @Option({ flags: '-w, --workflow <name>', description: 'only runs of this workflow' })
  parseWorkflow(value: string): string {
    return value;
  }

  @Option({ flags: '-s, --status <status>', description: `only runs with this status: ${STATUSES.join(', ')}` })
  parseStatus(value: string): string {
    if (STATUSES.includes(value)) return value;
    if (AWF_STATUSES[value]) return AWF_STATUSES[value];
    throw new AwfError(
      ErrorCodes.CLI_INVALID_ARGS,
      `--status "${value}" is not a run status`,
      { status: value },
      `Use one of: ${STATUSES.join(', ')}.`,
    );
  }

  @Option({ flags: '--since <age|date>', description: 'only runs started since then: 30m, 24h, 7d, or a date' })
  parseSince(value: string): string {
    return instantOf(value, '--since');
  }

  @Option({ flags: '-n, --limit <n>', description: 'at most n runs, newest first (default 20)' })
  parseLimit(value: string): number {
    return positiveInt(value, '--limit');
  }
}

/** `awf history`: past runs, newest first, from the history; `--stats`: AWF's counts of them instead. */
@Command({
  name: 'history',
  description: 'List past runs, newest first (filters: --workflow, --status, --since, --limit; --stats to count them)',
  subCommands: [HistoryMigrateCommand],
})
export class HistoryCommand extends RunQueryCommand {
  @Option({ flags: '--stats', description: 'only the counts of the runs selected: total, success, failed, cancelled' })
  parseStats(): boolean {
    return true;
  }
}

/** `awf runs list`: the same list as `awf history`. */
@SubCommand({ name: 'list', aliases: ['ls'], description: 'List past runs, newest first (same as awf history)' })
export class RunsListCommand extends RunQueryCommand {}
