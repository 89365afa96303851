// CliModule: the nest-commander commands. Commands are thin: parse, call one service,
// render. It may import every other module; nothing may import it.
import { Module } from '@nestjs/common';
import { ProxyModule } from '../../infrastructure/mcp/proxy.module';
import { McpServeCommand } from './mcp-serve.command';
import { PLUGIN_SUBCOMMANDS, PluginCommand } from './plugin.command';

const commands = [McpServeCommand];
const pluginCommands = [PluginCommand, ...PLUGIN_SUBCOMMANDS];

@Module({
  imports: [ProxyModule],
  providers: [...commands, ...pluginCommands],
})
export class CliModule {}
