import { Command, CommandRunner } from 'nest-commander';
import { WorkflowService } from '../../application/workflow/workflow.service';
import { AwfError } from '../../domain/errors/awf-error';
import { categoryOf } from '../../domain/errors/error-codes';
import { markReportedOnStdout } from './cli-errors';
import { globalFlags } from './global-flags';
import { renderValidation } from './validation.renderer';

/** `awf validate <workflow>`: every problem at once; exit 2 if the file is broken, 1 for USER problems only. */
@Command({ name: 'validate', arguments: '<workflow>', description: 'Check a workflow without running it, reporting every problem at once' })
export class ValidateCommand extends CommandRunner {
  constructor(private readonly workflows: WorkflowService) {
    super();
  }

  async run([target]: string[]): Promise<void> {
    const report = await this.workflows.validate(target);
    const format = globalFlags(this.command).format;
    const { stdout, stderr } = renderValidation(report, format);
    process.stdout.write(stdout);
    process.stderr.write(stderr);
    if (report.valid) return;
    const lead = report.errors.find((e) => categoryOf(e.code) === 'WORKFLOW') ?? report.errors[0];
    const n = report.errors.length;
    const error = new AwfError(lead.code as AwfError['code'], `${report.file}: ${n} error${n > 1 ? 's' : ''}`, { file: report.file, errors: report.errors });
    throw format === 'text' ? error : markReportedOnStdout(error);
  }
}
