import { Inject } from '@nestjs/common';
import { Command, CommandRunner } from 'nest-commander';
import { WorkflowService } from '../../../application/workflow/workflow.service';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import { RUN_INDEX, type RunIndex } from '../../../domain/ports/run-index.port';
import type { SecretMasker } from '../../../domain/ports/secret-masker.port';
import { SECRET_MASKER } from '../../../domain/ports/tokens';
import type { ProjectConfig } from '../../../infrastructure/config/project-config.loader';
import { PROJECT_CONFIG } from '../../../infrastructure/config/project-config.module';
import { ProcessSignals } from '../../../infrastructure/core/process-signals.service';
import { ApprovalDesk } from '../../../infrastructure/policy/approval-desk';
import { runsDir } from '../../../infrastructure/workflow/workflow-paths';
import { stringEnv } from '../run/run-session.command-base';

/** `awf tui`: AWF's terminal UI (interfaces/tui), over the same services as `awf run` and `awf runs`. */
@Command({ name: 'tui', description: 'Open the terminal UI: workflows, live runs, history and the audit log' })
export class TuiCommand extends CommandRunner {
  constructor(
    private readonly workflows: WorkflowService,
    @Inject(RUN_INDEX) private readonly index: RunIndex,
    @Inject(SECRET_MASKER) private readonly masker: SecretMasker,
    private readonly approvals: ApprovalDesk,
    @Inject(PROJECT_CONFIG) private readonly project: ProjectConfig,
    private readonly signals: ProcessSignals,
  ) {
    super();
  }

  async run(): Promise<void> {
    checkTerminal(process.stdin, process.stdout, process.env);
    // Loaded here, so that only `awf tui` loads React and Ink (`--help` lists this class too).
    const { tuiServices } =
      require('../../tui/tui-services.factory') as typeof import('../../tui/tui-services.factory');
    const { runTui } = require('../../tui/tui.app') as typeof import('../../tui/tui.app');
    const services = tuiServices({
      workflows: this.workflows,
      index: this.index,
      masker: this.masker,
      defaults: () => ({
        env: stringEnv(process.env),
        cwd: process.cwd(),
        runsDir: runsDir(),
        projectInputs: this.project.inputs,
      }),
    });
    // A policy approval is asked on the run's input line: the terminal belongs to the tui.
    this.approvals.mode = 'ask';
    this.approvals.person = services.runs.approve;
    await runTui(services, this.signals.signal);
  }
}

/** AWF refuses without TERM or with TERM=dumb; awf also needs stdin and stdout to be the terminal. */
export function checkTerminal(stdin: { isTTY?: boolean }, stdout: { isTTY?: boolean }, env: NodeJS.ProcessEnv): void {
  const why = !stdin.isTTY
    ? 'stdin is not a terminal'
    : !stdout.isTTY
      ? 'stdout is not a terminal'
      : !env.TERM
        ? 'no terminal: TERM is not set'
        : env.TERM === 'dumb'
          ? 'the terminal does not support interactive mode (TERM=dumb)'
          : undefined;
  if (!why) return;
  throw new AwfError(
    ErrorCodes.TUI_NO_TERMINAL,
    `awf tui needs an interactive terminal: ${why}`,
    {},
    'Run it from a terminal. In scripts use `awf run <workflow>` to run, and `awf runs` or `awf history` for past runs.',
  );
}
