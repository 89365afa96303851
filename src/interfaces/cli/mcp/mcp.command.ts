import { Command, CommandRunner } from 'nest-commander';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import { McpLoginCommand, McpLogoutCommand } from './mcp-login.command';
import { McpTrustCommand } from './mcp-trust.command';

export const MCP_SUBCOMMANDS = [McpTrustCommand, McpLoginCommand, McpLogoutCommand];

@Command({
  name: 'mcp',
  description:
    'Manage the MCP servers behind the proxy: trust (review and re-pin changed tools), login and logout (OAuth)',
  subCommands: MCP_SUBCOMMANDS,
})
export class McpCommand extends CommandRunner {
  async run(args: string[]): Promise<void> {
    throw new AwfError(
      ErrorCodes.CLI_INVALID_ARGS,
      args.length ? `unknown mcp command: ${args[0]}` : 'awf mcp needs a command',
      { args },
      'Use: awf mcp trust <server|plugin:name|module:Name>, awf mcp login <server> or awf mcp logout <server>.',
    );
  }
}
