// CliModule: the nest-commander commands. Commands are thin: parse, call one service,
// render. It may import every other module; nothing may import it.
import { Module } from '@nestjs/common';
import { ProxyModule } from '../../infrastructure/mcp-edge/proxy.module';
import { McpServeCommand } from './mcp-serve.command';
import { McpConfigCommand } from './mcp-config.command';
import { McpConfigService } from '../../infrastructure/agents/mcp-config.service';
import { WorkflowModule } from '../../infrastructure/workflow/workflow.module';
import { ListCommand } from './list.command';
import { RunsShowCommand } from './runs-show.command';
import { RunsCommand } from './runs.command';
import { RunCommand } from './run.command';
import { ValidateCommand } from './validate.command';
import { PLUGIN_SUBCOMMANDS, PluginCommand } from './plugin.command';

const commands = [McpServeCommand, McpConfigCommand, McpConfigService];
const runsCommands = [RunsCommand, RunsShowCommand];
const workflowCommands = [RunCommand, ValidateCommand, ListCommand];
const pluginCommands = [PluginCommand, ...PLUGIN_SUBCOMMANDS];

@Module({
  imports: [ProxyModule, WorkflowModule],
  providers: [...commands, ...workflowCommands, ...pluginCommands, ...runsCommands],
})
export class CliModule {}
