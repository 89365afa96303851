import { Command, CommandRunner } from 'nest-commander';
import { RunsListCommand } from './history.command';
import { RunsPruneCommand } from './runs-prune.command';
import { RunsShowCommand } from './runs-show.command';

export const RUNS_SUBCOMMANDS = [RunsListCommand, RunsShowCommand, RunsPruneCommand];

/** `awf runs`: the runs kept under --storage (default $XDG_DATA_HOME/awf). Alone it prints its help. */
@Command({
  name: 'runs',
  description: 'Inspect past runs: list, show (tool calls and audit trail), prune',
  subCommands: RUNS_SUBCOMMANDS,
})
export class RunsCommand extends CommandRunner {
  async run(): Promise<void> {
    this.command.help();
  }
}
