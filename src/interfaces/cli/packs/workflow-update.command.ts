import { Option, SubCommand, CommandRunner } from 'nest-commander';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import { PackService } from '../../../infrastructure/packs/pack.service';
import { globalFlags, jsonLine } from '../global-flags';
import { progressTo } from '../progress-lines';

@SubCommand({
  name: 'update',
  arguments: '[pack]',
  description: 'Move an installed pack (or every one, --all) to the newest stable release of its repository',
})
export class WorkflowUpdateCommand extends CommandRunner {
  constructor(private readonly packs: PackService) {
    super();
  }

  async run([name]: string[], options: { all?: boolean }): Promise<void> {
    if (!name === !options.all) {
      throw new AwfError(
        ErrorCodes.CLI_INVALID_ARGS,
        name ? 'give a pack name or --all, not both' : 'awf workflow update needs a pack name, or --all',
        {},
        'For example: awf workflow update speckit, or awf workflow update --all.',
      );
    }
    const json = globalFlags(this.command).format === 'json';
    const progress = progressTo(json);
    const names = name
      ? [name]
      : this.packs
          .list()
          .filter((p) => p.state)
          .map((p) => p.name);
    const results = [];
    for (const pack of names) {
      const r = await this.packs.update(pack, progress);
      results.push(r);
      if (!json) {
        progress(
          r.to
            ? `Updated ${r.name} from ${r.from} to ${r.to}`
            : `${r.name} is already at the latest version (${r.from})`,
        );
      }
    }
    if (json) process.stdout.write(jsonLine({ updated: results }));
    else if (options.all && names.length === 0) process.stdout.write('No installed workflow packs to update.\n');
  }

  @Option({ flags: '--all', description: 'update every pack installed from a release' })
  parseAll(): boolean {
    return true;
  }
}
