import { Inject } from '@nestjs/common';
import { Command, CommandRunner, Option } from 'nest-commander';
import { parseInputFlags } from '../../application/workflow/input-resolver';
import { WorkflowService } from '../../application/workflow/workflow.service';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { ApprovalDesk, type ApproveMode } from '../../infrastructure/policy/approval-desk';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import { SECRET_MASKER } from '../../domain/ports/tokens';
import { TELEMETRY_CONTROL, type TelemetryControl } from '../../domain/ports/telemetry-control.port';
import { resolveTelemetrySettings } from '../../infrastructure/telemetry/telemetry-settings';
import { loadProjectConfig } from '../../infrastructure/config/project-config.loader';
import { ProcessSignals } from '../../infrastructure/core/process-signals.service';
import { runsDir } from '../../infrastructure/workflow/workflow-paths';
import { type OutputFormat, parseFormat } from './output-format';
import { RunProgressRenderer } from './run-progress.renderer';
import { renderRunReport } from './run-report.renderer';

interface RunOptions {
  input?: string[];
  format: OutputFormat;
  otelExporter?: string;
  otelEndpoint?: string;
  otelServiceName?: string;
  approve?: ApproveMode;
}

/** `awf run <workflow>`: progress on stderr, the run's output (or its JSON report) on stdout. */
@Command({ name: 'run', arguments: '<workflow>', description: 'Run a workflow, given by name or by path to its .yaml file' })
export class RunCommand extends CommandRunner {
  constructor(
    private readonly workflows: WorkflowService,
    private readonly signals: ProcessSignals,
    @Inject(SECRET_MASKER) private readonly masker: SecretMasker,
    @Inject(TELEMETRY_CONTROL) private readonly telemetry: TelemetryControl,
    private readonly approvals: ApprovalDesk,
  ) {
    super();
  }

  async run([target]: string[], options: RunOptions): Promise<void> {
    const progress = new RunProgressRenderer(process.stderr, this.masker);
    const mask = (s: string): string => this.masker.mask(s);
    const project = loadProjectConfig();
    this.approvals.mode = options.approve ?? 'ask';
    await this.telemetry.start(resolveTelemetrySettings({
      flags: { exporter: options.otelExporter, endpoint: options.otelEndpoint, serviceName: options.otelServiceName }, project: project.telemetry,
    }));
    try {
      const report = await this.workflows.run({
        target,
        inputs: parseInputFlags(options.input ?? []),
        projectInputs: project.inputs,
        signal: this.signals.signal,
        observer: progress,
        cwd: process.cwd(),
        env: stringEnv(process.env),
        runsDir: runsDir(),
      });
      process.stdout.write(renderRunReport(report, options.format ?? 'text', mask));
      if (report.status === 'failure' && report.error) {
        throw new AwfError(report.error.code as AwfError['code'], report.error.message, { run_id: report.run_id, terminal: report.terminal }, report.error.hint);
      }
    } finally {
      progress.close();
    }
  }

  @Option({ flags: '--approve <mode>', description: "policy approvals: ask (default; denied when there is no terminal), all, or none" })
  parseApprove(value: string): ApproveMode {
    if (value === 'ask' || value === 'all' || value === 'none') return value;
    throw new AwfError(ErrorCodes.CLI_INVALID_ARGS, `--approve must be ask, all or none, not "${value}"`, { value }, 'See docs/policy.md.');
  }

  @Option({ flags: '-i, --input <name=value>', description: 'a workflow input (repeatable)' })
  parseInput(value: string, previous: string[] = []): string[] {
    return [...previous, value];
  }

  @Option({ flags: '--otel-exporter <name>', description: 'trace exporter: none (default), otlp, console (stderr) or file' })
  parseOtelExporter(value: string): string {
    return value;
  }

  @Option({ flags: '--otel-endpoint <url>', description: 'OTLP/HTTP base URL (default: OTEL_EXPORTER_OTLP_ENDPOINT); implies otlp' })
  parseOtelEndpoint(value: string): string {
    return value;
  }

  @Option({ flags: '--otel-service-name <name>', description: 'service.name of the spans (default: OTEL_SERVICE_NAME, else awf)' })
  parseOtelServiceName(value: string): string {
    return value;
  }

  @Option({ flags: '-f, --format <format>', description: 'text (default) or json', defaultValue: 'text' })
  parseFormat(value: string): OutputFormat {
    return parseFormat(value);
  }
}

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string'));
}
