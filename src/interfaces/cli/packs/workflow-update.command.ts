import { Option, SubCommand, CommandRunner } from 'nest-commander';
import { PackService } from '../../../infrastructure/packs/pack.service';
import { globalFlags, jsonLine } from '../global-flags';
import { nameOrAll, progressTo } from '../release-commands';

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
    nameOrAll('awf workflow update', name, options.all);
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
