// CliModule: the nest-commander commands. Commands are thin: parse, call one service,
// render. It may import every other module; nothing may import it.
import { Module } from '@nestjs/common';
import { ProxyModule } from '../../infrastructure/mcp/proxy.module';
import { McpServeCommand } from './mcp-serve.command';

const commands = [McpServeCommand];

@Module({
  imports: [ProxyModule],
  providers: [...commands],
})
export class CliModule {}
