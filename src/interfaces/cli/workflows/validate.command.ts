import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command, CommandRunner, Option } from 'nest-commander';
import {
  type ValidationReport,
  validateVerdict,
  WorkflowService,
} from '../../../application/workflow/workflow.service';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import { parseDurationMs } from '../../../domain/workflow/duration';
import { findPackDir } from '../../../infrastructure/workflow/pack-paths';
import { globalFlags } from '../global-flags';
import { renderBatch, renderValidation } from './validation.renderer';

interface ValidateOptions {
  strict?: boolean;
  dir?: string;
  pack?: string;
  skipPlugins?: boolean;
  validatorTimeout?: number;
}

type ValidateChecks = { strict: boolean; skipPlugins: boolean; pluginStartMs?: number };

/**
 * `awf validate <workflow> | --dir <path> | --pack <name>`: every problem at once; exit 1 if a file does not load
 * (as AWF's validate), else 2 for a WORKFLOW problem and 1 for USER problems only.
 */
@Command({
  name: 'validate',
  arguments: '[workflow]',
  description: 'Check a workflow (or every *.yaml of --dir) without running it, reporting every problem at once',
})
export class ValidateCommand extends CommandRunner {
  constructor(private readonly workflows: WorkflowService) {
    super();
  }

  async run([target]: string[], options: ValidateOptions): Promise<void> {
    const format = globalFlags(this.command).format;
    if (options.pack) options.dir = packWorkflowsDir(options.pack);
    if (!target && !options.dir) {
      throw new AwfError(
        ErrorCodes.CLI_INVALID_ARGS,
        'provide a workflow name, --pack or --dir',
        {},
        'For example: awf validate my-workflow, awf validate wf.yaml, awf validate --dir .awf/workflows',
      );
    }
    const checks: ValidateChecks = {
      strict: options.strict === true,
      skipPlugins: options.skipPlugins === true,
      // How long each plugin may take to start when validate asks for its operations.
      ...(options.validatorTimeout ? { pluginStartMs: options.validatorTimeout } : {}),
    };
    if (options.dir) return this.batch(resolve(options.dir), checks, format);
    const report = await this.workflows.validate(target, checks);
    const { stdout, stderr } = renderValidation(report, format);
    process.stdout.write(stdout);
    process.stderr.write(stderr);
    if (!report.valid) throw validateVerdict(report);
  }

  /** AWF's batch mode: every `*.yaml` directly in the dir, not recursively. */
  private async batch(
    dir: string,
    checks: ValidateChecks,
    format: ReturnType<typeof globalFlags>['format'],
  ): Promise<void> {
    let files: string[];
    try {
      files = readdirSync(dir)
        .filter((f) => f.endsWith('.yaml'))
        .sort();
    } catch (err) {
      throw new AwfError(
        ErrorCodes.INPUT_MISSING_FILE,
        `cannot read --dir ${dir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
        { dir },
      );
    }
    if (files.length === 0) {
      // "All 0 workflow(s) valid" would pass a CI check that points at the wrong directory.
      throw new AwfError(
        ErrorCodes.INPUT_MISSING_FILE,
        `no *.yaml file directly in --dir ${dir}`,
        { dir },
        'Point --dir at the directory that holds the workflows (it is not searched recursively).',
      );
    }
    const reports: ValidationReport[] = [];
    for (const file of files) {
      try {
        reports.push(await this.workflows.validate(join(dir, file), checks));
      } catch (err) {
        if (!(err instanceof AwfError)) throw err;
        reports.push({
          workflow: file.replace(/\.yaml$/, ''),
          file: join(dir, file),
          valid: false,
          errors: [{ code: err.code, path: '', message: err.message, severity: 'error' }],
          warnings: [],
        });
      }
    }
    process.stdout.write(renderBatch(reports, format));
    const failed = reports.filter((r) => !r.valid);
    if (failed.length === 0) return;
    throw new AwfError(
      validateVerdict(failed[0]).code,
      `${failed.length} of ${reports.length} workflow(s) failed validation`,
      {
        dir,
        failed: failed.map((r) => r.file),
      },
    );
  }

  @Option({ flags: '--strict', description: 'treat warnings (unknown keys, unknown providers) as errors' })
  parseStrict(): boolean {
    return true;
  }

  @Option({ flags: '--dir <path>', description: 'validate every *.yaml directly in this directory' })
  parseDir(value: string): string {
    return value;
  }

  @Option({ flags: '--pack <name>', description: 'validate every workflow of an installed workflow pack' })
  parsePack(value: string): string {
    return value;
  }

  @Option({
    flags: '--skip-plugins',
    description: 'start no plugin: their operations and plugin_tools are not checked',
  })
  parseSkipPlugins(): boolean {
    return true;
  }

  @Option({
    flags: '--validator-timeout <duration>',
    description: 'how long each plugin may take to start when validate asks for its operations (5s, 500ms)',
  })
  parseValidatorTimeout(value: string): number {
    const ms = parseDurationMs(value);
    if (ms !== undefined) return ms;
    throw new AwfError(
      ErrorCodes.CLI_INVALID_ARGS,
      `--validator-timeout "${value}" is not a duration`,
      { value },
      'Use a duration such as 5s, 500ms or 1m (0: no bound of its own).',
    );
  }
}

/** The workflows folder of an installed pack, for `--pack`. */
function packWorkflowsDir(name: string): string {
  const pack = findPackDir(name);
  if (pack) return join(pack.dir, 'workflows');
  throw new AwfError(
    ErrorCodes.PACK_NOT_FOUND,
    `workflow pack "${name}" is not installed`,
    { pack: name },
    '`awf workflow list` shows the installed packs.',
  );
}
