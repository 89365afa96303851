// CliModule: the nest-commander commands. Commands are thin: parse, call one service,
// render. It may import every other module; nothing may import it.
import { Module } from '@nestjs/common';
import { ProxyModule } from '../../infrastructure/mcp/proxy.module';
import { McpServeCommand } from './mcp-serve.command';
import { RunsShowCommand } from './runs-show.command';
import { RunsCommand } from './runs.command';

const commands = [McpServeCommand];
const runsCommands = [RunsCommand, RunsShowCommand];

@Module({
  imports: [ProxyModule],
  providers: [...commands, ...runsCommands],
})
export class CliModule {}
