import { Option, SubCommand, CommandRunner } from 'nest-commander';
import { PluginDiscovery } from '../../../infrastructure/plugins/plugin-discovery.service';
import { PackService } from '../../../infrastructure/packs/pack.service';
import { globalFlags, jsonLine } from '../global-flags';
import { progressTo } from '../release-commands';

@SubCommand({
  name: 'install',
  arguments: '<owner/repo[@version]>',
  description: 'Install a workflow pack from its releases (checksum-verified) into .awf/workflow-packs',
})
export class WorkflowInstallCommand extends CommandRunner {
  constructor(
    private readonly packs: PackService,
    private readonly plugins: PluginDiscovery,
  ) {
    super();
  }

  async run([source]: string[], options: { global?: boolean; force?: boolean }): Promise<void> {
    const json = globalFlags(this.command).format === 'json';
    const done = await this.packs.install(source, { ...options, progress: progressTo(json) });
    const missing = Object.entries(done.manifest.plugins).filter(([name]) => !this.plugins.find(name));
    for (const [name, constraint] of missing) {
      process.stderr.write(
        `Warning: pack requires plugin "${name}" (${constraint}) — ` +
          `install with: awf plugin install <owner>/${name}\n`,
      );
    }
    if (json) {
      const { manifest, ...rest } = done;
      return void process.stdout.write(jsonLine({ ...rest, workflows: manifest.workflows }));
    }
    process.stdout.write(`Installed workflow pack "${done.name}" v${done.version} to ${done.dir}\n`);
  }

  @Option({ flags: '--global', description: 'install for your user ($XDG_DATA_HOME/awf/workflow-packs)' })
  parseGlobal(): boolean {
    return true;
  }

  @Option({ flags: '--force', description: 'replace an installed pack of the same name' })
  parseForce(): boolean {
    return true;
  }
}
