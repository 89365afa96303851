import { Command, CommandRunner, Option } from 'nest-commander';
import { join } from 'node:path';
import { type InitResult, ProjectInitService } from '../../../application/project/project-init.service';
import { globalFlags, jsonLine } from '../global-flags';

/** `awf init [--force]`: a starter `.awf/` whose example workflow runs offline; `--global`: the shared dirs. */
@Command({
  name: 'init',
  description: 'Create a starter .awf/ here: config, an example workflow that runs offline, a prompt',
})
export class InitCommand extends CommandRunner {
  constructor(private readonly project: ProjectInitService) {
    super();
  }

  async run(_args: string[], options: { force?: boolean; global?: boolean }): Promise<void> {
    const flags = globalFlags(this.command);
    const force = options.force === true;
    const result = options.global ? this.project.initGlobal({ force }) : this.project.init({ force });
    if (flags.format === 'json') return void process.stdout.write(jsonLine({ ...result }));
    if (flags.quiet) return;
    if (options.global) return void process.stdout.write(globalLines(result));
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

  @Option({
    flags: '--global',
    description: 'create the prompts/ and scripts/ every project shares, under $XDG_CONFIG_HOME/awf, instead',
  })
  parseGlobal(): boolean {
    return true;
  }
}

function globalLines({ root, created, replaced, kept = [] }: InitResult): string {
  const at = (f: string) => join(root, f);
  return `${[
    ...created.map((f) => `Created ${at(f)}`),
    ...replaced.map((f) => `Replaced ${at(f)}`),
    ...kept.map((f) => `Kept ${at(f)} (it exists; --force writes it again)`),
  ].join('\n')}\n`;
}
