import { ApprovalDesk, type ApproveMode } from '../../../infrastructure/policy/approval-desk';
import { Inject } from '@nestjs/common';
import { CommandRunner, Option } from 'nest-commander';
import { parseInputFlags } from '../../../application/workflow/run/input-resolver';
import { WorkflowService } from '../../../application/workflow/workflow.service';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { RunObserver } from '../../../domain/workflow/ports/run-observer.port';
import type { RunReport } from '../../../domain/workflow/run-report.model';
import type { SecretMasker } from '../../../domain/ports/secret-masker.port';
import { SECRET_MASKER } from '../../../domain/ports/tokens';
import { TELEMETRY_CONTROL, type TelemetryControl } from '../../../domain/ports/telemetry-control.port';
import { resolveTelemetrySettings } from '../../../infrastructure/telemetry/telemetry-settings';
import type { ProjectConfig } from '../../../infrastructure/config/project-config.loader';
import { PROJECT_CONFIG } from '../../../infrastructure/config/project-config.module';
import { ProcessSignals } from '../../../infrastructure/core/process-signals.service';
import { runsDir } from '../../../infrastructure/workflow/workflow-paths';
import type { InputDef } from '../../../domain/workflow/workflow.model';
import { askForInput } from './input-prompt';
import { StdinTurns } from './stdin-turns.reader';
import { type OutputMode, StepOutputPrinter } from './step-output.printer';
import { colorEnabled, globalFlags } from '../global-flags';
import { RunProgressRenderer } from './run-progress.renderer';
import { endRun } from './run-ending';

export interface RunSessionOptions {
  input?: string[];
  otelExporter?: string;
  otelEndpoint?: string;
  otelServiceName?: string;
  otelProtocol?: string;
  otelMetrics?: string;
  approve?: ApproveMode;
  output?: OutputMode;
}

export interface RunSessionContext {
  inputs: Record<string, string>;
  projectInputs: Record<string, unknown>;
  signal: AbortSignal;
  observer: RunObserver;
  cwd: string;
  env: Record<string, string>;
  runsDir: string;
  /** The next turn of a `mode: conversation` step, typed on stdin. */
  userInput: (step: string) => Promise<string | undefined>;
  /** On a terminal: asks for a required input that has no value (absent elsewhere: the run fails). */
  askInput?: (input: InputDef) => Promise<string | undefined>;
  /** stdin's lines, shared by every prompt of the run (`--interactive`). */
  turns: StdinTurns;
}

/**
 * What `awf run` and `awf resume` share: the -i and --otel-* flags, telemetry set-up,
 * progress on stderr, the run's output (or its JSON report) on stdout, and a failed run
 * turned into its coded error.
 */
export abstract class RunSessionCommand extends CommandRunner {
  constructor(
    protected readonly workflows: WorkflowService,
    private readonly signals: ProcessSignals,
    @Inject(SECRET_MASKER) protected readonly masker: SecretMasker,
    @Inject(TELEMETRY_CONTROL) private readonly telemetry: TelemetryControl,
    private readonly approvals: ApprovalDesk,
    @Inject(PROJECT_CONFIG) protected readonly project: ProjectConfig,
  ) {
    super();
  }

  /** `resumable: false` (`awf run -s`): the closing line names no `awf resume`. */
  protected async session(
    options: RunSessionOptions,
    start: (base: RunSessionContext) => Promise<RunReport>,
    { resumable } = { resumable: true },
  ): Promise<void> {
    const flags = globalFlags(this.command);
    const mode = options.output ?? 'silent';
    const output =
      mode === 'silent' || flags.quiet
        ? undefined
        : new StepOutputPrinter(mode, this.masker, {
            stdout: flags.format === 'json' ? process.stderr : process.stdout,
            stderr: process.stderr,
          });
    const progress = new RunProgressRenderer(process.stderr, this.masker, {
      quiet: flags.quiet,
      color: colorEnabled(process.stderr, flags),
      output,
    });
    const mask = (s: string): string => this.masker.mask(s);
    const turns = new StdinTurns(this.signals.signal);
    const project = this.project;
    this.approvals.mode = options.approve ?? 'ask';
    await this.telemetry.start(
      resolveTelemetrySettings({
        flags: {
          ...awfExporterForm(options),
          serviceName: options.otelServiceName,
          metrics: options.otelMetrics,
        },
        project: project.telemetry,
      }),
    );
    try {
      const report = await start({
        inputs: parseInputFlags(options.input ?? []),
        projectInputs: project.inputs,
        signal: this.signals.signal,
        observer: progress,
        cwd: process.cwd(),
        env: stringEnv(process.env),
        runsDir: runsDir(),
        userInput: turns.next,
        askInput: process.stdin.isTTY ? (def) => askForInput(turns, def) : undefined,
        turns,
      });
      endRun(report, { flags, progress, mask, printed: !!output }, { resumable });
    } finally {
      turns.close();
      progress.close();
    }
  }

  @Option({
    flags: '--approve <mode>',
    description: 'policy approvals: ask (default; denied when there is no terminal), all, or none',
  })
  parseApprove(value: string): ApproveMode {
    if (value === 'ask' || value === 'all' || value === 'none') return value;
    throw new AwfError(
      ErrorCodes.CLI_INVALID_ARGS,
      `--approve must be ask, all or none, not "${value}"`,
      { value },
      'See docs/policy.md.',
    );
  }

  @Option({
    flags: '-o, --output <mode>',
    description: "steps' output: silent (default), streaming (live [OUT]/[ERR] lines) or buffered (as each step ends)",
  })
  parseOutput(value: string): OutputMode {
    if (value === 'silent' || value === 'streaming' || value === 'buffered') return value;
    throw new AwfError(
      ErrorCodes.CLI_INVALID_ARGS,
      `invalid output mode "${value}"`,
      { output: value },
      'Use -o silent|streaming|buffered (the output format is -f).',
    );
  }

  @Option({ flags: '-i, --input <name=value>', description: 'a workflow input (repeatable)' })
  parseInput(value: string, previous: string[] = []): string[] {
    return [...previous, value];
  }

  @Option({
    flags: '--otel-exporter <name>',
    description: "trace exporter: none (default), otlp, console (stderr) or file; AWF's host:port = otlp over gRPC",
  })
  parseOtelExporter(value: string): string {
    return value;
  }

  @Option({
    flags: '--otel-endpoint <url>',
    description: 'OTLP base URL, or host:port for grpc (default: OTEL_EXPORTER_OTLP_ENDPOINT); implies otlp',
  })
  parseOtelEndpoint(value: string): string {
    return value;
  }

  @Option({
    flags: '--otel-service-name <name>',
    description: 'service.name of the spans (default: OTEL_SERVICE_NAME, else awf)',
  })
  parseOtelServiceName(value: string): string {
    return value;
  }

  @Option({ flags: '--otel-protocol <protocol>', description: 'OTLP protocol: http/protobuf (default) or grpc' })
  parseOtelProtocol(value: string): string {
    return value;
  }

  @Option({ flags: '--otel-metrics <name>', description: 'metrics exporter: none or otlp (on with an endpoint)' })
  parseOtelMetrics(value: string): string {
    return value;
  }
}

/**
 * AWF's `--otel-exporter host:port` names an OTLP/gRPC collector (reference §3.2); awf's own
 * form names the exporter. Both are taken: a host:port means otlp there, over gRPC unless
 * --otel-protocol says otherwise.
 */
function awfExporterForm(o: RunSessionOptions): { exporter?: string; endpoint?: string; protocol?: string } {
  if (o.otelExporter && /^[^\s/:]+:\d+$/.test(o.otelExporter) && !o.otelEndpoint)
    return { exporter: 'otlp', endpoint: o.otelExporter, protocol: o.otelProtocol ?? 'grpc' };
  return { exporter: o.otelExporter, endpoint: o.otelEndpoint, protocol: o.otelProtocol };
}

export function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string'));
}
