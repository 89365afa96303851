import { Command, CommandRunner, Option } from 'nest-commander';
import { WorkflowService } from '../../../application/workflow/workflow.service';
import { globalFlags } from '../global-flags';
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

  async run(_args: string[], options: { tag?: string[] }): Promise<void> {
    const wanted = options.tag?.map((t) => t.toLowerCase());
    // Every tag asked for must be on the workflow (case does not matter).
    const list = (await this.workflows.list()).filter(
      (w) => !wanted || wanted.every((t) => w.tags?.some((own) => own.toLowerCase() === t)),
    );
    const format = globalFlags(this.command).format;
    process.stdout.write(renderWorkflowList(list, this.workflows.searchPaths(), format, options.tag?.join(', ')));
  }

  @Option({ flags: '-t, --tag <tag>', description: 'only workflows with this tag (repeat: with every one)' })
  parseTag(value: string, previous: string[] = []): string[] {
    return [...previous, value];
  }
}
