import { Command, CommandRunner, Option } from 'nest-commander';
import { WorkflowService } from '../../application/workflow/workflow.service';
import { type OutputFormat, parseFormat } from './output-format';
import { renderWorkflowList } from './workflow-list.renderer';

/** `awf list`: the workflows found in the lookup paths, first hit per name. */
@Command({ name: 'list', aliases: ['ls'], description: 'List the workflows found in $AWF_WORKFLOWS_PATH, ./.awf/workflows and ~/.config/awf/workflows' })
export class ListCommand extends CommandRunner {
  constructor(private readonly workflows: WorkflowService) {
    super();
  }

  async run(_args: string[], options: { format: OutputFormat }): Promise<void> {
    process.stdout.write(renderWorkflowList(await this.workflows.list(), this.workflows.searchPaths(), options.format ?? 'text'));
  }

  @Option({ flags: '-f, --format <format>', description: 'text (default) or json', defaultValue: 'text' })
  parseFormat(value: string): OutputFormat {
    return parseFormat(value);
  }
}
