import { existsSync } from 'node:fs';
import { Option, SubCommand, CommandRunner } from 'nest-commander';
import { PluginInstaller } from '../../../infrastructure/plugins/plugin-installer.service';
import { PluginReleases } from '../../../infrastructure/plugins/plugin-releases.service';
import { looksLikeReleaseSource } from '../../../infrastructure/releases/release-source';
import { globalFlags } from '../global-flags';
import { progressTo } from '../release-commands';

interface InstallOptions {
  link?: boolean;
  force?: boolean;
  preRelease?: boolean;
}

@SubCommand({
  name: 'install',
  arguments: '<dir|tgz|owner/repo[@version]>',
  description:
    'Install a plugin from its folder (copied, or linked with --link), a tarball, or its releases (owner/repo), ' +
    'once it starts',
})
export class PluginInstallCommand extends CommandRunner {
  constructor(
    private readonly installer: PluginInstaller,
    private readonly releases: PluginReleases,
  ) {
    super();
  }

  async run([source]: string[], options: InstallOptions): Promise<void> {
    // A path on disk wins: `plugins/kv` is a folder when it exists, else owner/repo.
    if (!existsSync(source) && looksLikeReleaseSource(source) && !options.link) {
      const progress = progressTo(globalFlags(this.command).format === 'json');
      const r = await this.releases.install(source, { ...options, prerelease: options.preRelease, progress });
      process.stdout.write(
        `Plugin "${r.plugin}" installed successfully (version ${r.version}) in ${r.dir}\n` +
          `operations: ${r.operations.join(', ') || '(none)'}\n`,
      );
      return;
    }
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

  @Option({ flags: '--pre-release', description: 'owner/repo: take the newest release, pre-releases included' })
  parsePreRelease(): boolean {
    return true;
  }
}
