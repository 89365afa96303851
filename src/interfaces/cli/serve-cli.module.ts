// ServeCliModule: the CLI of a process started as `awf mcp-serve` (once per agent step):
// that one command and the ProxyModule it runs. command-modules.ts picks it instead of CliModule for
// mcp-serve, so the proxy never builds or loads the other commands and what they inject.
// Must never import CliModule, workflow, agent or plugin-management modules.
import { Module } from '@nestjs/common';
import { ProxyModule } from '../../infrastructure/mcp-edge/proxy.module';
import { CliProgram } from './cli-program';
import { McpServeCommand } from './mcp-serve.command';

@Module({
  imports: [ProxyModule],
  providers: [CliProgram, McpServeCommand],
})
export class ServeCliModule {}
