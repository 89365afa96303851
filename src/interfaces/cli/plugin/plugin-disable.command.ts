import { SubCommand, CommandRunner } from 'nest-commander';
import { PluginCatalogService } from '../../../infrastructure/plugins/plugin-catalog.service';
import { globalFlags, jsonLine } from '../global-flags';

@SubCommand({
  name: 'disable',
  arguments: '<name>',
  description: 'Disable an installed plugin: it is no longer started or exposed',
})
export class PluginDisableCommand extends CommandRunner {
  constructor(private readonly catalog: PluginCatalogService) {
    super();
  }

  async run([name]: string[]): Promise<void> {
    const result = this.catalog.setEnabled(name, false);
    process.stdout.write(
      globalFlags(this.command).format === 'json'
        ? jsonLine({ plugin: result.name, enabled: false, state_file: result.stateFile })
        : `plugin ${result.name} disabled (${result.stateFile})\n`,
    );
  }
}
