import { SubCommand, CommandRunner } from 'nest-commander';
import type { FoundRepository } from '../../../infrastructure/releases/github-releases.client';
import { PackService } from '../../../infrastructure/packs/pack.service';
import { globalFlags, jsonLine } from '../global-flags';
import { renderTable } from '../table.renderer';

@SubCommand({
  name: 'search',
  arguments: '[query]',
  description: 'Search published workflow packs (repositories with the topic awf-workflow)',
})
export class WorkflowSearchCommand extends CommandRunner {
  constructor(private readonly packs: PackService) {
    super();
  }

  async run([query]: string[]): Promise<void> {
    const found = await this.packs.search(query);
    renderFound(found, globalFlags(this.command).format, 'No workflow packs found');
  }
}

/** AWF's search table (NAME, STARS, DESCRIPTION cut at 60), or the items as JSON. */
export function renderFound(found: FoundRepository[], format: string, none: string): void {
  if (format === 'json') return void process.stdout.write(jsonLine(found));
  if (found.length === 0) return void process.stdout.write(`${none}\n`);
  const cut = (d: string | null) => (d && d.length > 60 ? `${d.slice(0, 57)}...` : (d ?? ''));
  const rows = found.map((r) => [r.full_name, String(r.stargazers_count ?? 0), cut(r.description)]);
  process.stdout.write(renderTable([['NAME', 'STARS', 'DESCRIPTION'], ...rows], format === 'table'));
}
