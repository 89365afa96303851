import { Command, CommandRunner } from 'nest-commander';
import { WorkflowService } from '../../application/workflow/workflow.service';
import { globalFlags } from './global-flags';
import { ListPromptsCommand } from './list-prompts.command';
import { renderWorkflowList } from './workflow-list.renderer';

/** `awf list`: the workflows found in the lookup paths, first hit per name. */
@Command({
  name: 'list',
  aliases: ['ls'],
  subCommands: [ListPromptsCommand],
  description: 'List the workflows found in $AWF_WORKFLOWS_PATH, ./.awf/workflows and ~/.config/awf/workflows',
})
export class ListCommand extends CommandRunner {
  constructor(private readonly workflows: WorkflowService) {
    super();
  }

  async run(_args: string[]): Promise<void> {
    process.stdout.write(
      renderWorkflowList(await this.workflows.list(), this.workflows.searchPaths(), globalFlags(this.command).format),
    );
  }
}
