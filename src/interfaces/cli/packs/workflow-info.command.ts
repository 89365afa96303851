import { SubCommand, CommandRunner } from 'nest-commander';
import { PackService } from '../../../infrastructure/packs/pack.service';
import { globalFlags, jsonLine } from '../global-flags';

@SubCommand({
  name: 'info',
  arguments: '<pack>',
  description: 'Show an installed pack: its manifest, source, workflows and README',
})
export class WorkflowInfoCommand extends CommandRunner {
  constructor(private readonly packs: PackService) {
    super();
  }

  async run([name]: string[]): Promise<void> {
    const info = this.packs.info(name);
    if (globalFlags(this.command).format === 'json') return void process.stdout.write(jsonLine(info));
    const m = info.manifest;
    const lines = [
      `Pack: ${info.name}`,
      `Version: ${m?.version ?? '-'}`,
      ...(m?.description ? [`Description: ${m.description}`] : []),
      ...(m?.author ? [`Author: ${m.author}`] : []),
      ...(m?.license ? [`License: ${m.license}`] : []),
      ...(info.state ? [`Source: ${info.state.source_data.repository}`] : []),
      `Folder: ${info.dir}`,
      ...(info.problem ? [`Problem: ${info.problem}`] : []),
      ...(info.workflows.length ? ['Workflows:'] : []),
      ...info.workflows.map((w) => `  - ${w.name}${w.description ? `: ${w.description}` : ''}`),
      ...(m && Object.keys(m.plugins).length ? ['Plugins:'] : []),
      ...Object.entries(m?.plugins ?? {}).map(([p, c]) => `  - ${p} ${c}`),
      ...(info.readme ? ['', 'README:', info.readme.trimEnd()] : []),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}
