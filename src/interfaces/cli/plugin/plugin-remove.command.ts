import { Option, SubCommand, CommandRunner } from 'nest-commander';
import { PluginInstaller } from '../../../infrastructure/plugins/plugin-installer.service';

@SubCommand({
  name: 'remove',
  arguments: '<name>',
  description: 'Remove an installed plugin (a link only: never its target)',
})
export class PluginRemoveCommand extends CommandRunner {
  constructor(private readonly installer: PluginInstaller) {
    super();
  }

  async run([name]: string[], options: { keepData?: boolean }): Promise<void> {
    const r = this.installer.remove(name, options);
    process.stdout.write(
      `plugin ${r.name} removed (${r.dir}${r.linkedTo ? `, a link; ${r.linkedTo} is untouched` : ''})\n`,
    );
  }

  @Option({ flags: '--keep-data', description: 'keep its entry in plugins.json (enable state, config)' })
  parseKeepData(): boolean {
    return true;
  }
}
