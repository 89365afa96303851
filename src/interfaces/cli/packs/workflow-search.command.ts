import { SubCommand, CommandRunner } from 'nest-commander';
import { PackService } from '../../../infrastructure/packs/pack.service';
import { renderFound } from '../found-repositories.renderer';
import { globalFlags } from '../global-flags';

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
