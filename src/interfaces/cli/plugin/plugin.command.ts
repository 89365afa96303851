import { Command, CommandRunner } from 'nest-commander';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import { PluginDisableCommand } from './plugin-disable.command';
import { PluginEnableCommand } from './plugin-enable.command';
import { PluginInitCommand } from './plugin-init.command';
import { PluginInstallCommand } from './plugin-install.command';
import { PluginListCommand } from './plugin-list.command';
import { PluginRemoveCommand } from './plugin-remove.command';
import { PluginSearchCommand } from './plugin-search.command';
import { PluginUpdateCommand } from './plugin-update.command';
import { PluginVerifyCommand } from './plugin-verify.command';
import { unknownSubcommand } from '../unknown-subcommand';

export const PLUGIN_SUBCOMMANDS = [
  PluginListCommand,
  PluginEnableCommand,
  PluginDisableCommand,
  PluginInitCommand,
  PluginInstallCommand,
  PluginRemoveCommand,
  PluginUpdateCommand,
  PluginVerifyCommand,
  PluginSearchCommand,
];

@Command({
  name: 'plugin',
  aliases: ['plugins'],
  description: 'Manage gRPC plugins: list, enable, disable, init, install, remove, update, verify, search',
  subCommands: PLUGIN_SUBCOMMANDS,
})
export class PluginCommand extends CommandRunner {
  async run(args: string[]): Promise<void> {
    if (args.length) throw unknownSubcommand(this.command, args[0]);
    throw new AwfError(
      ErrorCodes.CLI_INVALID_ARGS,
      args.length ? `unknown plugin command: ${args[0]}` : 'awf plugin needs a command',
      { args },
      'Use one of: awf plugin list | enable <name> | disable <name> | init <name> | install <dir|tgz|owner/repo> | ' +
        'remove <name> | update [name] | verify [names] | search [query].',
    );
  }
}
