import { Inject } from '@nestjs/common';
import { Command, CommandRunner, Option } from 'nest-commander';
import { AcpSessions } from '../../../application/acp/acp-sessions.service';
import { WorkflowService } from '../../../application/workflow/workflow.service';
import type { AppLogger } from '../../../domain/ports/app-logger.port';
import type { SecretMasker } from '../../../domain/ports/secret-masker.port';
import { TELEMETRY_CONTROL, type TelemetryControl } from '../../../domain/ports/telemetry-control.port';
import { APP_LOGGER, SECRET_MASKER } from '../../../domain/ports/tokens';
import { loadAcpServeConfig } from '../../../infrastructure/acp/acp-serve-config';
import { AcpStdioEdge } from '../../../infrastructure/acp/acp-stdio.edge';
import type { ProjectConfig } from '../../../infrastructure/config/project-config.loader';
import { PROJECT_CONFIG } from '../../../infrastructure/config/project-config.module';
import { ProcessSignals } from '../../../infrastructure/core/process-signals.service';
import { resolveTelemetrySettings } from '../../../infrastructure/telemetry/telemetry-settings';
import { ApprovalDesk } from '../../../infrastructure/policy/approval-desk';
import { runsDir } from '../../../infrastructure/workflow/workflow-paths';
import { stringEnv } from '../run/run-session.command-base';

/**
 * `awf acp-serve --config FILE` (hidden: editors start it): workflows as an agent of an ACP
 * editor (Zed and others) over stdio, until the editor closes stdin or SIGTERM/SIGINT; then
 * the sessions' runs are cancelled (recorded as cancelled, so they can be resumed). docs/acp.md.
 */
@Command({
  name: 'acp-serve',
  description: 'Serve workflows to an editor over the Agent Client Protocol on stdio (docs/acp.md)',
  options: { hidden: true },
})
export class AcpServeCommand extends CommandRunner {
  constructor(
    private readonly workflows: WorkflowService,
    private readonly signals: ProcessSignals,
    private readonly approvals: ApprovalDesk,
    @Inject(SECRET_MASKER) private readonly masker: SecretMasker,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
    @Inject(PROJECT_CONFIG) private readonly project: ProjectConfig,
    @Inject(TELEMETRY_CONTROL) private readonly telemetry: TelemetryControl,
  ) {
    super();
  }

  async run(_args: string[], options: { config: string }): Promise<void> {
    const { workflowsDir } = loadAcpServeConfig(options.config);
    await this.telemetry.start(resolveTelemetrySettings({ project: this.project.telemetry }));
    const env = stringEnv(process.env);
    const edge = new AcpStdioEdge(this.logger);
    const sessions = new AcpSessions({
      workflows: this.workflows,
      editor: edge,
      masker: this.masker,
      logger: this.logger,
      // The config's directory, when given, is the one place workflows are found; sessions run them
      // by file. A pack's workflow is `/<pack>:<workflow>` in the editor, as AWF names it.
      catalog: async () =>
        (await this.workflows.list(workflowsDir ? [workflowsDir] : undefined)).map((w) =>
          w.name.includes('/') ? { ...w, name: w.name.replace('/', ':') } : w,
        ),
      defaults: () => ({ env: { ...env }, runsDir: runsDir(), projectInputs: this.project.inputs }),
      approvalTimeoutMs: this.approvals.timeoutMs,
    });
    // Nobody sits at this terminal (stdin is the protocol): the editor is asked instead.
    this.approvals.mode = 'ask';
    this.approvals.person = sessions.approvals.ask;
    const closed = edge.serve(sessions);
    await Promise.race([closed, this.signals.stopped()]);
    await sessions.stop();
    edge.close();
  }

  @Option({
    flags: '--config <file>',
    description: 'the acp-serve config (YAML or JSON: workflows_dir)',
    required: true,
  })
  parseConfig(value: string): string {
    return value;
  }
}
