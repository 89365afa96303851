import { Command, CommandRunner, Option } from 'nest-commander';
import { SelfUpgrade } from '../../../infrastructure/upgrade/self-upgrade.service';
import { globalFlags, jsonLine } from '../global-flags';

interface UpgradeOptions {
  check?: boolean;
  force?: boolean;
}

/**
 * `awf upgrade [version] [--check] [--force]`, AWF's command for an npm-installed awf: the
 * configured npm registry says what is latest; a global npm install is upgraded in place,
 * anything else is told the exact command (docs/cli.md, "Upgrading awf").
 */
@Command({
  name: 'upgrade',
  arguments: '[version]',
  description: 'Upgrade awf to the latest (or a given) version from the npm registry; --check only says',
})
export class UpgradeCommand extends CommandRunner {
  constructor(private readonly upgrade: SelfUpgrade) {
    super();
  }

  async run([version]: string[], options: UpgradeOptions): Promise<void> {
    const json = globalFlags(this.command).format === 'json';
    const plan = await this.upgrade.plan(version);
    const { installation, command } = plan;
    const summary = {
      current: plan.current,
      target: plan.target,
      update_available: plan.newer,
      registry: plan.registry,
      installed_as: installation.kind,
      command: command.join(' '),
    };
    const say = (text: string, upgraded = false): void =>
      void process.stdout.write(json ? jsonLine({ ...summary, upgraded }) : `${text}\n`);
    if (!plan.newer && !options.force) return say(`awf is already up to date (version v${plan.current})`);
    if (options.check) return say(`Update available: v${plan.target} (current: v${plan.current})`);
    if (installation.kind === 'npm-global') {
      process.stderr.write(`Upgrading with: ${command.join(' ')}\n`);
      this.upgrade.install(plan);
      return say(`Upgraded from v${plan.current} to v${plan.target}`, true);
    }
    const where =
      installation.kind === 'project'
        ? `awf is a dependency of ${installation.project} (${installation.manager}); upgrade it there:\n` +
          `  cd ${installation.project} && ${command.join(' ')}`
        : `awf runs from a source checkout (${installation.root}): pull and build it, ` +
          `or install the published package:\n  ${command.join(' ')}`;
    say(`Update available: v${plan.target} (current: v${plan.current})\n${where}`);
  }

  @Option({ flags: '--check', description: 'only say whether a newer version is published' })
  parseCheck(): boolean {
    return true;
  }

  @Option({ flags: '--force', description: 'install even when already at that version' })
  parseForce(): boolean {
    return true;
  }
}
