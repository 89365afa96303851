// WorkflowModule: `awf run / validate / list` behind WorkflowService — the YAML repository,
// the shell executor, the validator, the runner and the per-step ToolProxyService.
// Agent providers and tool providers are found by marker through CoreModule; plugins through
// the optional PLUGIN_CATALOG token; `.awf/config.yaml` as PROJECT_CONFIG (ProjectConfigModule,
// global: the process reads the file once). Must never import the MCP SDK, a tools/plugins/agents
// module, or the CLI.
import { ToolPinStore } from '../core/tool-pin.store';
import { TRANSCRIPT_STORE, type TranscriptStore } from '../../domain/ports/transcript-store.port';
import { Module, type OnModuleDestroy } from '@nestjs/common';
import { AgentStepExecutor } from '../../application/workflow/steps/agent-step.executor';
import { CallWorkflowStepExecutor } from '../../application/workflow/steps/call-workflow-step.executor';
import { CalledWorkflows } from '../../application/workflow/steps/called-workflows';
import { CommandStepExecutor } from '../../application/workflow/steps/command-step.executor';
import { OperationStepExecutor } from '../../application/workflow/steps/operation-step.executor';
import { HookRunner } from '../../application/workflow/steps/hook-runner';
import { ToolProxyService } from '../../application/workflow/steps/tool-proxy.service';
import { WorkflowRunner } from '../../application/workflow/run/workflow-runner.service';
import { WorkflowService } from '../../application/workflow/workflow.service';
import { WorkflowValidator } from '../../application/workflow/validation/workflow-validator.service';
import { RunTelemetry } from '../../application/run-telemetry.service';
import { PLUGIN_CATALOG, type PluginCatalog } from '../../domain/ports/plugin-catalog.port';
import { RUN_HISTORY, type RunHistory } from '../../domain/ports/run-history.port';
import { RUN_INDEX, type RunIndex } from '../../domain/ports/run-index.port';
import { METRICS_RECORDER, type MetricsRecorder } from '../../domain/ports/metrics.port';
import { TELEMETRY_CONTROL, type TelemetryControl } from '../../domain/ports/telemetry-control.port';
import { TRACER, type Tracer } from '../../domain/ports/tracer.port';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import type { ToolRouterFactory } from '../../domain/ports/tool-router-factory.port';
import { APP_LOGGER, SECRET_MASKER, TOOL_ROUTER_FACTORY } from '../../domain/ports/tokens';
import { AGENT_CATALOG, type AgentCatalog } from '../../domain/workflow/ports/agent-catalog.port';
import { COMMAND_EXECUTOR, type CommandExecutor } from '../../domain/workflow/ports/command-executor.port';
import { WORKFLOW_REPOSITORY, type WorkflowRepository } from '../../domain/workflow/ports/workflow-repository.port';
import { FileProxyStartFailures } from '../config/file-proxy-start-failures';
import { RealToolScopeResolver } from '../config/tool-scope.resolver';
import { FsUpstreamServerProbe } from '../config/upstream-server.probe';
import { FsWorkflowFiles } from '../core/fs-workflow-files';
import { PrivateTempDirs } from '../core/private-temp-dir';
import type { ProjectConfig } from '../config/project-config.loader';
import { PROJECT_CONFIG } from '../config/project-config.module';
import { ApprovalDesk } from '../policy/approval-desk';
import { SocketApprovalChannels } from '../policy/approval-channels.service';
import { selfCommand } from '../core/self-command';
import { RegistryAgentCatalog } from './registry-agent-catalog.adapter';
import { ShellCommandExecutor } from './shell-command.executor';
import { YamlWorkflowRepository } from './yaml-workflow.repository';
import { HttpRequestOperation } from './http-request.operation';
import { NotifySendOperation } from './notify-send.operation';
import { githubOperations } from './github.operations';

/** The operations awf runs without a plugin (the github.* ones talk to GitHub only when a step runs). */
const BUILTINS = [new HttpRequestOperation(), new NotifySendOperation(), ...githubOperations()];

/** script_file, prompt_file, `@prompts/` inputs and readFile read through this one adapter. */
const FILES = new FsWorkflowFiles();

@Module({
  providers: [
    { provide: WORKFLOW_REPOSITORY, useFactory: () => new YamlWorkflowRepository() },
    { provide: COMMAND_EXECUTOR, useFactory: () => new ShellCommandExecutor() },
    { provide: AGENT_CATALOG, useClass: RegistryAgentCatalog },
    { provide: ApprovalDesk, useFactory: (masker: SecretMasker) => new ApprovalDesk(masker), inject: [SECRET_MASKER] },
    {
      provide: ToolProxyService,
      useFactory: (
        tools: ToolRouterFactory,
        desk: ApprovalDesk,
        project: ProjectConfig,
        telemetry?: TelemetryControl,
      ) =>
        new ToolProxyService(tools, {
          launch: (file) => selfCommand(['mcp-serve', `--config=${file}`]),
          dirs: new PrivateTempDirs(),
          projectDir: process.cwd(),
          scopes: new RealToolScopeResolver(),
          telemetry,
          mcpServers: () => project.mcpServers,
          pinsDir: () => new ToolPinStore().dir,
          upstreamProbe: new FsUpstreamServerProbe(),
          startFailures: new FileProxyStartFailures(),
          policyDefaults: project.policy,
          approvals: new SocketApprovalChannels(desk),
        }),
      inject: [TOOL_ROUTER_FACTORY, ApprovalDesk, PROJECT_CONFIG, { token: TELEMETRY_CONTROL, optional: true }],
    },
    {
      provide: WorkflowValidator,
      useFactory: (agents: AgentCatalog, repo: WorkflowRepository, project: ProjectConfig, plugins?: PluginCatalog) =>
        new WorkflowValidator(
          agents,
          plugins,
          () => project.mcpServers,
          repo,
          BUILTINS.map((b) => b.name),
          { policy: project.policy, extensions: project.extensions.length > 0 },
          { files: FILES, env: process.env, cwd: () => process.cwd() },
        ),
      inject: [AGENT_CATALOG, WORKFLOW_REPOSITORY, PROJECT_CONFIG, { token: PLUGIN_CATALOG, optional: true }],
    },
    {
      provide: CallWorkflowStepExecutor,
      useFactory: (repo: WorkflowRepository, validator: WorkflowValidator, masker: SecretMasker) =>
        new CallWorkflowStepExecutor(new CalledWorkflows(repo, validator, FILES, masker)),
      inject: [WORKFLOW_REPOSITORY, WorkflowValidator, SECRET_MASKER],
    },
    {
      provide: WorkflowRunner,
      useFactory: (
        exec: CommandExecutor,
        agents: AgentCatalog,
        proxies: ToolProxyService,
        logger: AppLogger,
        calls: CallWorkflowStepExecutor,
        tools: ToolRouterFactory,
        tracer?: Tracer,
        history?: RunHistory,
        metrics?: MetricsRecorder,
      ) =>
        new WorkflowRunner(
          {
            commands: new CommandStepExecutor(exec),
            agents: new AgentStepExecutor(agents, proxies, logger, history),
            hooks: new HookRunner(exec),
            calls,
            operations: new OperationStepExecutor(BUILTINS, tools, history),
          },
          tracer && new RunTelemetry(tracer, process.env, history, metrics),
          FILES,
        ),
      inject: [
        COMMAND_EXECUTOR,
        AGENT_CATALOG,
        ToolProxyService,
        APP_LOGGER,
        CallWorkflowStepExecutor,
        TOOL_ROUTER_FACTORY,
        { token: TRACER, optional: true },
        { token: RUN_HISTORY, optional: true },
        { token: METRICS_RECORDER, optional: true },
      ],
    },
    {
      provide: WorkflowService,
      useFactory: (
        repo: WorkflowRepository,
        validator: WorkflowValidator,
        runner: WorkflowRunner,
        masker: SecretMasker,
        project: ProjectConfig,
        index?: RunIndex,
        transcripts?: TranscriptStore,
      ) =>
        new WorkflowService(repo, validator, runner, masker, FILES, index, project.history.maxOutputBytes, transcripts),
      inject: [
        WORKFLOW_REPOSITORY,
        WorkflowValidator,
        WorkflowRunner,
        SECRET_MASKER,
        PROJECT_CONFIG,
        { token: RUN_INDEX, optional: true },
        { token: TRANSCRIPT_STORE, optional: true },
      ],
    },
  ],
  exports: [WorkflowService, ToolProxyService, ApprovalDesk, WORKFLOW_REPOSITORY, WorkflowValidator],
})
export class WorkflowModule implements OnModuleDestroy {
  constructor(private readonly proxies: ToolProxyService) {}

  /** The safety net: a run that ended abruptly still leaves no proxy config behind. */
  onModuleDestroy(): void {
    this.proxies.closeAll();
  }
}
