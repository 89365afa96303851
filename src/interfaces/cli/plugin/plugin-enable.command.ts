import { SubCommand, CommandRunner } from 'nest-commander';
import { PluginCatalogService } from '../../../infrastructure/plugins/plugin-catalog.service';
import { globalFlags, jsonLine } from '../global-flags';

@SubCommand({ name: 'enable', arguments: '<name>', description: 'Enable an installed plugin' })
export class PluginEnableCommand extends CommandRunner {
  constructor(private readonly catalog: PluginCatalogService) {
    super();
  }

  async run([name]: string[]): Promise<void> {
    const result = this.catalog.setEnabled(name, true);
    process.stdout.write(
      globalFlags(this.command).format === 'json'
        ? jsonLine({ plugin: result.name, enabled: true, state_file: result.stateFile })
        : `plugin ${result.name} enabled (${result.stateFile})\n`,
    );
  }
}
