import { SubCommand, CommandRunner } from 'nest-commander';
import { PluginCatalogService } from '../../infrastructure/plugins/plugin-catalog.service';

@SubCommand({ name: 'enable', arguments: '<name>', description: 'Enable an installed plugin' })
export class PluginEnableCommand extends CommandRunner {
  constructor(private readonly catalog: PluginCatalogService) {
    super();
  }

  async run([name]: string[]): Promise<void> {
    const result = this.catalog.setEnabled(name, true);
    process.stdout.write(`plugin ${result.name} enabled (${result.stateFile})\n`);
  }
}
