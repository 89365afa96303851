import { Option, SubCommand, CommandRunner } from 'nest-commander';
import { PluginInstaller } from '../../../infrastructure/plugins/plugin-installer.service';

@SubCommand({
  name: 'install',
  arguments: '<dir|tgz>',
  description: 'Install a plugin from its folder (copied, or linked with --link) or a tarball, once it starts',
})
export class PluginInstallCommand extends CommandRunner {
  constructor(private readonly installer: PluginInstaller) {
    super();
  }

  async run([source]: string[], options: { link?: boolean; force?: boolean }): Promise<void> {
    const r = await this.installer.install(source, options);
    process.stdout.write(
      `plugin ${r.name} ${r.version} installed in ${r.dir} (${r.how} from ${r.source})\n` +
        `operations: ${r.operations.join(', ') || '(none)'}\n`,
    );
  }

  @Option({ flags: '--link', description: 'link the folder instead of copying it (your builds are used at once)' })
  parseLink(): boolean {
    return true;
  }

  @Option({ flags: '--force', description: 'replace an installed plugin of the same name' })
  parseForce(): boolean {
    return true;
  }
}
