import { readdirSync } from 'node:fs';
import { SubCommand, CommandRunner } from 'nest-commander';
import { PackService } from '../../../infrastructure/packs/pack.service';
import { workflowDirs } from '../../../infrastructure/workflow/workflow-paths';
import { globalFlags, jsonLine } from '../global-flags';
import { renderTable } from '../table.renderer';

@SubCommand({
  name: 'list',
  aliases: ['ls'],
  description: 'List installed workflow packs, and the loose workflows of the project and user',
})
export class WorkflowListCommand extends CommandRunner {
  constructor(private readonly packs: PackService) {
    super();
  }

  async run(): Promise<void> {
    const flags = globalFlags(this.command);
    const packs = this.packs.list().map((p) => ({
      name: p.name,
      version: p.manifest?.version ?? '',
      enabled: p.state?.enabled ?? true,
      source: p.state?.source_data.repository ?? '',
      scope: p.scope,
      dir: p.dir,
      workflows: p.manifest?.workflows ?? [],
      ...(p.problem ? { problem: p.problem } : {}),
    }));
    // AWF's pseudo-rows: the workflows outside packs, per place they are found.
    const loose = workflowDirs().flatMap(({ dir, source }) => {
      const names = yamlNames(dir);
      return names.length ? [{ name: `(${source})`, version: '', enabled: true, source: '', workflows: names }] : [];
    });
    if (flags.format === 'json') return void process.stdout.write(jsonLine({ packs, loose }));
    if (packs.length === 0 && loose.length === 0) return void process.stdout.write('No workflow packs installed.\n');
    const rows = [...packs, ...loose].map((p) => [
      p.name,
      p.version || '-',
      p.enabled ? 'yes' : 'no',
      p.source || '-',
      p.workflows.join(', ') || ('problem' in p ? `- (${String(p.problem)})` : '-'),
    ]);
    process.stdout.write(
      renderTable([['NAME', 'VERSION', 'ENABLED', 'SOURCE', 'WORKFLOWS'], ...rows], flags.format === 'table'),
    );
  }
}

function yamlNames(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => f.slice(0, -'.yaml'.length))
      .sort();
  } catch {
    return [];
  }
}
