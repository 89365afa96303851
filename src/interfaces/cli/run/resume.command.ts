import { Command, Option } from 'nest-commander';
import { RunSessionCommand, type RunSessionOptions } from './run-session.command-base';
import { renderRunList } from '../runs/runs.renderer';
import { globalFlags } from '../global-flags';

/**
 * `awf resume <id> [--from step]`: continues a failed, cancelled or killed run with its
 * inputs and the states of the steps that succeeded. Without an id it lists what can be resumed.
 */
@Command({
  name: 'resume',
  arguments: '[run-id]',
  description: 'Continue a failed, cancelled or killed run from its failed step (--from to pick one)',
})
export class ResumeCommand extends RunSessionCommand {
  async run([id]: string[], options: RunSessionOptions & { from?: string; list?: boolean }): Promise<void> {
    // AWF's `-l` lists even when an id is given.
    if (!id || options.list) {
      process.stdout.write(renderRunList(await this.workflows.resumable(), globalFlags(this.command).format));
      return;
    }
    await this.session(options, (base) => this.workflows.resume({ ...base, runId: id, from: options.from }));
  }

  @Option({ flags: '-l, --list', description: 'list the runs that can be resumed (as awf resume-list)' })
  parseList(): boolean {
    return true;
  }

  @Option({
    flags: '--from <step>',
    description: 'the step to start at (default: the failed step, or the one that was running)',
  })
  parseFrom(value: string): string {
    return value;
  }
}
