import { Command, CommandRunner, Option } from 'nest-commander';
import { WorkflowService } from '../../application/workflow/workflow.service';
import { AwfError } from '../../domain/errors/awf-error';
import { categoryOf } from '../../domain/errors/error-codes';
import { type OutputFormat, parseFormat } from './output-format';
import { renderValidation } from './validation.renderer';

/** `awf validate <workflow>`: every problem at once; exit 2 if the file is broken, 1 for USER problems only. */
@Command({ name: 'validate', arguments: '<workflow>', description: 'Check a workflow without running it, reporting every problem at once' })
export class ValidateCommand extends CommandRunner {
  constructor(private readonly workflows: WorkflowService) {
    super();
  }

  async run([target]: string[], options: { format: OutputFormat; strict?: boolean }): Promise<void> {
    const report = await this.workflows.validate(target, { strict: options.strict === true });
    const { stdout, stderr } = renderValidation(report, options.format ?? 'text');
    process.stdout.write(stdout);
    process.stderr.write(stderr);
    if (report.valid) return;
    const lead = report.errors.find((e) => categoryOf(e.code) === 'WORKFLOW') ?? report.errors[0];
    const n = report.errors.length;
    throw new AwfError(lead.code as AwfError['code'], `${report.file}: ${n} error${n > 1 ? 's' : ''}`, { file: report.file, errors: report.errors });
  }

  @Option({ flags: '--strict', description: 'treat warnings (unknown keys, unknown providers) as errors' })
  parseStrict(): boolean {
    return true;
  }

  @Option({ flags: '-f, --format <format>', description: 'text (default) or json', defaultValue: 'text' })
  parseFormat(value: string): OutputFormat {
    return parseFormat(value);
  }
}
