// CliModule: the nest-commander commands. Commands are thin: parse, call one service,
// render. It may import every other module; nothing may import it.
import { Module } from '@nestjs/common';
import { ProxyModule } from '../../infrastructure/mcp-edge/proxy.module';
import { CliProgram } from './cli-program';
import { McpServeCommand } from './mcp-serve.command';
import { McpConfigCommand } from './mcp-config.command';
import { McpConfigService } from '../../infrastructure/agents/mcp-config.service';
import { WorkflowModule } from '../../infrastructure/workflow/workflow.module';
import { ListCommand } from './list.command';
import { RUNS_SUBCOMMANDS, RunsCommand } from './runs.command';
import { HistoryCommand } from './history.command';
import { ResumeCommand } from './resume.command';
import { ResumeListCommand } from './resume-list.command';
import { StatusCommand } from './status.command';
import { RunCommand } from './run.command';
import { ServeCommand } from './serve.command';
import { ValidateCommand } from './validate.command';
import { PLUGIN_SUBCOMMANDS, PluginCommand } from './plugin.command';
import { ProjectCliModule } from './project-cli.module';

const commands = [McpServeCommand, McpConfigCommand, McpConfigService];
const runsCommands = [
  RunsCommand,
  ...RUNS_SUBCOMMANDS,
  HistoryCommand,
  StatusCommand,
  ResumeCommand,
  ResumeListCommand,
];
const workflowCommands = [RunCommand, ValidateCommand, ListCommand, ServeCommand];
const pluginCommands = [PluginCommand, ...PLUGIN_SUBCOMMANDS];

@Module({
  imports: [ProxyModule, WorkflowModule, ProjectCliModule],
  providers: [CliProgram, ...commands, ...workflowCommands, ...pluginCommands, ...runsCommands],
})
export class CliModule {}
