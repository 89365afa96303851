import { Command, CommandRunner } from 'nest-commander';
import { RunsShowCommand } from './runs-show.command';

/** `awf runs`: the runs kept under $XDG_DATA_HOME/awf/runs. Alone it prints its help. */
@Command({ name: 'runs', description: 'Inspect past runs (their tool calls and audit trail)', subCommands: [RunsShowCommand] })
export class RunsCommand extends CommandRunner {
  async run(): Promise<void> {
    this.command.help();
  }
}
