import { Command, CommandRunner } from 'nest-commander';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { Provider } from '@nestjs/common';
import { ToolPinStore } from '../../../infrastructure/core/tool-pin.store';
import { McpTrustCommand } from './mcp-trust.command';

const MCP_SUBCOMMANDS = [McpTrustCommand];

@Command({
  name: 'mcp',
  description: 'Manage the MCP servers behind the proxy: trust (review and re-pin changed tools)',
  subCommands: MCP_SUBCOMMANDS,
})
export class McpCommand extends CommandRunner {
  async run(args: string[]): Promise<void> {
    throw new AwfError(
      ErrorCodes.CLI_INVALID_ARGS,
      args.length ? `unknown mcp command: ${args[0]}` : 'awf mcp needs a command',
      { args },
      'Use: awf mcp trust <server>.',
    );
  }
}

/** What `awf mcp`'s container holds: the commands and the pin store they read and write. */
export const MCP_COMMANDS: Provider[] = [
  McpCommand,
  ...MCP_SUBCOMMANDS,
  { provide: ToolPinStore, useFactory: () => new ToolPinStore() },
];
