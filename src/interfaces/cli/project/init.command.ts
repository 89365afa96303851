import { Command, CommandRunner, Option } from 'nest-commander';
import { ProjectInitService } from '../../../application/project/project-init.service';
import { globalFlags, jsonLine } from '../global-flags';

/** `awf init [--force]`: a starter `.awf/` whose example workflow runs offline. */
@Command({
  name: 'init',
  description: 'Create a starter .awf/ here: config, an example workflow that runs offline, a prompt',
})
export class InitCommand extends CommandRunner {
  constructor(private readonly project: ProjectInitService) {
    super();
  }

  async run(_args: string[], options: { force?: boolean }): Promise<void> {
    const flags = globalFlags(this.command);
    const result = this.project.init({ force: options.force === true });
    if (flags.format === 'json') return void process.stdout.write(jsonLine({ ...result }));
    if (flags.quiet) return;
    const lines = [
      ...result.created.map((f) => `Created ${f}`),
      ...result.replaced.map((f) => `Replaced ${f}`),
      '',
      'Next steps:',
      '  awf list              list the workflows',
      '  awf run example       run the example (offline: a command, then an agent through the MCP proxy)',
      '  awf diagram example   draw it (Graphviz DOT; -f mermaid for Mermaid)',
      '  awf validate example  check a workflow without running it',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }

  @Option({ flags: '--force', description: 'write the starter files even where they exist' })
  parseForce(): boolean {
    return true;
  }
}
