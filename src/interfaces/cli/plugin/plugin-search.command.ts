import { SubCommand, CommandRunner } from 'nest-commander';
import { PluginReleases } from '../../../infrastructure/plugins/plugin-releases.service';
import { renderFound } from '../found-repositories.renderer';
import { globalFlags } from '../global-flags';

@SubCommand({
  name: 'search',
  arguments: '[query]',
  description: 'Search published plugins (repositories with the topic awf-plugin)',
})
export class PluginSearchCommand extends CommandRunner {
  constructor(private readonly releases: PluginReleases) {
    super();
  }

  async run([query]: string[]): Promise<void> {
    renderFound(await this.releases.search(query), globalFlags(this.command).format, 'No plugins found');
  }
}
