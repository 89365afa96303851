import { Command, CommandRunner } from 'nest-commander';
import { RunsListCommand } from './history.command';
import { RunsCancelCommand } from './runs-cancel.command';
import { RunsFollowCommand } from './runs-follow.command';
import { RunsPruneCommand } from './runs-prune.command';
import { RunsShowCommand } from './runs-show.command';
import { RunsTranscriptCommand } from './runs-transcript.command';
import { unknownSubcommand } from '../unknown-subcommand';

export const RUNS_SUBCOMMANDS = [
  RunsListCommand,
  RunsShowCommand,
  RunsTranscriptCommand,
  RunsPruneCommand,
  RunsFollowCommand,
  RunsCancelCommand,
];

/** `awf runs`: the runs kept under --storage (default $XDG_DATA_HOME/awf). Alone it prints its help. */
@Command({
  name: 'runs',
  description:
    'Inspect past runs: list, show (tool calls and audit trail), transcript, prune; follow or cancel queued runs',
  subCommands: RUNS_SUBCOMMANDS,
})
export class RunsCommand extends CommandRunner {
  async run([given]: string[]): Promise<void> {
    if (given !== undefined) throw unknownSubcommand(this.command, given);
    this.command.help();
  }
}
