import { Command, CommandRunner } from 'nest-commander';
import { WorkflowService } from '../../../application/workflow/workflow.service';
import { globalFlags } from '../global-flags';
import { renderRunList } from '../runs/runs.renderer';

/** `awf resume-list`: the runs `awf resume` can continue (failed, cancelled, interrupted), newest first. */
@Command({ name: 'resume-list', description: 'List the runs that awf resume can continue' })
export class ResumeListCommand extends CommandRunner {
  constructor(private readonly workflows: WorkflowService) {
    super();
  }

  async run(): Promise<void> {
    process.stdout.write(renderRunList(await this.workflows.resumable(), globalFlags(this.command).format));
  }
}
