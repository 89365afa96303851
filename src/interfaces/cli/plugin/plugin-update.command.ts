import { Option, SubCommand, CommandRunner } from 'nest-commander';
import { PluginDiscovery } from '../../../infrastructure/plugins/plugin-discovery.service';
import { PluginReleases } from '../../../infrastructure/plugins/plugin-releases.service';
import { readInstallState } from '../../../infrastructure/releases/install-state';
import { globalFlags, jsonLine } from '../global-flags';
import { nameOrAll, progressTo } from '../release-commands';

@SubCommand({
  name: 'update',
  arguments: '[name]',
  description: 'Move a plugin installed from releases (or every one, --all) to its newest release',
})
export class PluginUpdateCommand extends CommandRunner {
  constructor(
    private readonly releases: PluginReleases,
    private readonly discovery: PluginDiscovery,
  ) {
    super();
  }

  async run([name]: string[], options: { all?: boolean; preRelease?: boolean }): Promise<void> {
    nameOrAll('awf plugin update', name, options.all);
    const json = globalFlags(this.command).format === 'json';
    const progress = progressTo(json);
    const fromReleases = () =>
      this.discovery
        .discover()
        .filter((p) => readInstallState(p.dir)?.source_data.repository.match(/^[^/]+\/[^/]+$/))
        .map((p) => p.name);
    const results = [];
    for (const plugin of name ? [name] : fromReleases()) {
      const r = await this.releases.update(plugin, { prerelease: options.preRelease, progress });
      results.push(r);
      if (!json) {
        progress(
          r.to
            ? `Updated plugin "${r.name}" from ${r.from} to ${r.to}`
            : `Plugin "${r.name}" is already up to date (version ${r.from})`,
        );
      }
    }
    if (json) process.stdout.write(jsonLine({ updated: results }));
  }

  @Option({ flags: '--all', description: 'update every plugin installed from releases' })
  parseAll(): boolean {
    return true;
  }

  @Option({ flags: '--pre-release', description: 'take pre-releases too' })
  parsePreRelease(): boolean {
    return true;
  }
}
