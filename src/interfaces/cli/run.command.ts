import { Command } from 'nest-commander';
import { RunSessionCommand, type RunSessionOptions } from './run-session.command-base';

/** `awf run <workflow>`: progress on stderr, the run's output (or its JSON report) on stdout. */
@Command({
  name: 'run',
  arguments: '<workflow>',
  description: 'Run a workflow, given by name or by path to its .yaml file',
})
export class RunCommand extends RunSessionCommand {
  async run([target]: string[], options: RunSessionOptions): Promise<void> {
    await this.session(options, (base) => this.workflows.run({ ...base, target }));
  }
}
