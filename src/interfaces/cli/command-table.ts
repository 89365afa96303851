// The CLI's composition root: which Nest modules the container of each command holds. The
// entry (cli-main.ts) reads the command's name from argv, finds it here and builds a container
// of exactly these modules, the shared ones (AppModule) and the project's extensions. Each
// loader requires its files only when its command runs, so `awf list` never loads the agents'
// or the proxy's code. `--version`, `--help` and `completion` build no container (cli-main.ts).
// A test checks that every command class is listed here under the names its @Command gives.
import type { DynamicModule, Provider } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { CliProgram } from './cli-program';

type Importable = NonNullable<DynamicModule['imports']>[number];

export interface CommandEntry {
  /** The words that select it: its name and aliases, as its @Command declares them. */
  names: readonly string[];
  /** False for commands that must answer in a project whose `.awf/config.yaml` is broken. */
  readsProject?: boolean;
  /** Its command classes (a command and its sub-commands). */
  commands(): Provider[];
  /** The modules its commands' dependencies come from. */
  imports(): Importable[];
}

/** The command classes' own module: nest-commander finds the commands among its providers. */
@Module({})
export class CommandModule {
  static of(entry: CommandEntry): DynamicModule {
    return { module: CommandModule, imports: entry.imports(), providers: [CliProgram, ...entry.commands()] };
  }
}

/** What serves tool calls: `mcp-serve`, and `awf run` (its in-process preflight and openai_compatible). */
const toolSources = (): Importable[] => [
  require('../../infrastructure/telemetry/telemetry.module').TelemetryModule,
  require('../../infrastructure/tools/tools.module').ToolsModule,
  require('../../infrastructure/plugins/plugins.module').PluginsModule,
  require('../../infrastructure/policy/policy.module').PolicyModule,
  require('../../infrastructure/upstreams/upstreams.module').UpstreamsModule,
];
/** What reads, checks and runs workflows: the validator needs the agent and plugin catalogues. */
const workflows = (): Importable[] => [
  require('../../infrastructure/plugins/plugins.module').PluginsModule,
  require('../../infrastructure/agents/agents.module').AgentsModule,
  require('../../infrastructure/workflow/workflow.module').WorkflowModule,
];
const history = (): Importable => require('../../infrastructure/history/history.module').HistoryModule;
/** Runs on a queue: the module loads no BullMQ until a command opens a queue. */
const queue = (): Importable => require('../../infrastructure/queue/queue.module').QueueModule;
const queuedRuns = (): Importable => require('../../infrastructure/queue/queued-runs.module').QueuedRunsModule;
const projectServices = (): Importable => require('./project/project-services.module').ProjectServicesModule;

export const COMMANDS: readonly CommandEntry[] = [
  {
    names: ['mcp-serve'],
    commands: () => [require('./mcp/mcp-serve.command').McpServeCommand],
    imports: () => [...toolSources(), require('../../infrastructure/mcp-edge/proxy.module').ProxyModule],
  },
  {
    names: ['run'],
    commands: () => [require('./run/run.command').RunCommand],
    imports: () => [...toolSources(), ...workflows(), history(), queuedRuns()],
  },
  {
    names: ['worker'],
    commands: () => [require('./worker/worker.command').WorkerCommand],
    imports: () => [...toolSources(), ...workflows(), history(), queuedRuns()],
  },
  {
    names: ['resume'],
    commands: () => [require('./run/resume.command').ResumeCommand],
    imports: () => [...toolSources(), ...workflows(), history()],
  },
  {
    names: ['resume-list'],
    commands: () => [require('./run/resume-list.command').ResumeListCommand],
    imports: () => [...workflows(), history()],
  },
  {
    names: ['serve'],
    commands: () => [require('./serve/serve.command').ServeCommand],
    imports: () => [...toolSources(), ...workflows(), history(), queuedRuns()],
  },
  {
    names: ['acp-serve'],
    commands: () => [require('./acp/acp-serve.command').AcpServeCommand],
    imports: () => [...toolSources(), ...workflows(), history()],
  },
  {
    names: ['tui'],
    commands: () => [require('./tui/tui.command').TuiCommand],
    imports: () => [...toolSources(), ...workflows(), history()],
  },
  {
    names: ['validate'],
    commands: () => [require('./workflows/validate.command').ValidateCommand],
    imports: () => workflows(),
  },
  {
    names: ['list', 'ls'],
    commands: () => [
      require('./workflows/list.command').ListCommand,
      require('./workflows/list-prompts.command').ListPromptsCommand,
    ],
    // Listing reads workflow files only: no agent or plugin catalogue.
    imports: () => [require('../../infrastructure/workflow/workflow.module').WorkflowModule, projectServices()],
  },
  {
    names: ['diagram'],
    commands: () => [require('./workflows/diagram.command').DiagramCommand],
    imports: () => [...workflows(), projectServices()],
  },
  {
    names: ['runs'],
    commands: () => [require('./runs/runs.command').RunsCommand, ...require('./runs/runs.command').RUNS_SUBCOMMANDS],
    imports: () => [history(), queue()],
  },
  {
    names: ['history'],
    commands: () => [
      require('./runs/history.command').HistoryCommand,
      require('./runs/history-migrate.command').HistoryMigrateCommand,
    ],
    imports: () => [history()],
  },
  { names: ['status'], commands: () => [require('./runs/status.command').StatusCommand], imports: () => [history()] },
  {
    names: ['plugin', 'plugins'],
    commands: () => [
      require('./plugin/plugin.command').PluginCommand,
      ...require('./plugin/plugin.command').PLUGIN_SUBCOMMANDS,
    ],
    imports: () => [require('../../infrastructure/plugins/plugins.module').PluginsModule],
  },
  {
    names: ['workflow', 'wf'],
    commands: () => [
      require('./packs/workflow.command').WorkflowCommand,
      ...require('./packs/workflow.command').WORKFLOW_SUBCOMMANDS,
    ],
    imports: () => [
      require('../../infrastructure/packs/packs.module').PacksModule,
      require('../../infrastructure/plugins/plugins.module').PluginsModule,
    ],
  },
  {
    names: ['upgrade'],
    readsProject: false,
    commands: () => [
      require('./upgrade/upgrade.command').UpgradeCommand,
      require('../../infrastructure/upgrade/self-upgrade.service').SelfUpgrade,
    ],
    imports: () => [],
  },
  {
    names: ['mcp-config'],
    commands: () => [
      require('./mcp/mcp-config.command').McpConfigCommand,
      require('../../infrastructure/agents/mcp-config.service').McpConfigService,
    ],
    imports: () => [],
  },
  {
    names: ['mcp'],
    commands: () => [require('./mcp/mcp.command').McpCommand, ...require('./mcp/mcp.command').MCP_SUBCOMMANDS],
    imports: () => [],
  },
  {
    names: ['approvals'],
    commands: () => [
      require('./approvals/approvals.command').ApprovalsCommand,
      ...require('./approvals/approvals.command').APPROVALS_SUBCOMMANDS,
    ],
    imports: () => [],
  },
  {
    names: ['init'],
    commands: () => [require('./project/init.command').InitCommand],
    imports: () => [projectServices()],
  },
  {
    names: ['config'],
    commands: () => [
      require('./project/config-show.command').ConfigCommand,
      require('./project/config-show.command').ConfigShowCommand,
    ],
    imports: () => [projectServices()],
  },
  {
    names: ['error'],
    readsProject: false,
    commands: () => [require('./project/error.command').ErrorCommand],
    imports: () => [],
  },
];

export function findCommand(name: string | undefined): CommandEntry | undefined {
  return name === undefined ? undefined : COMMANDS.find((c) => c.names.includes(name));
}

/**
 * Every command class, for what needs the whole tree but no container: `--help`, `awf help`,
 * `completion`, and an unknown command's did-you-mean (cli-tree.ts).
 */
export function allCommandClasses(): Provider[] {
  const completion = (require('./completion/completion.command') as typeof import('./completion/completion.command'))
    .CompletionCommand;
  return [...COMMANDS.flatMap((c) => c.commands()), completion];
}
