import { Command, CommandRunner } from 'nest-commander';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import { unknownSubcommand } from '../unknown-subcommand';
import { WorkflowInfoCommand } from './workflow-info.command';
import { WorkflowInstallCommand } from './workflow-install.command';
import { WorkflowListCommand } from './workflow-list.command';
import { WorkflowRemoveCommand } from './workflow-remove.command';
import { WorkflowSearchCommand } from './workflow-search.command';
import { WorkflowUpdateCommand } from './workflow-update.command';

export const WORKFLOW_SUBCOMMANDS = [
  WorkflowInstallCommand,
  WorkflowListCommand,
  WorkflowInfoCommand,
  WorkflowUpdateCommand,
  WorkflowRemoveCommand,
  WorkflowSearchCommand,
];

@Command({
  name: 'workflow',
  aliases: ['wf'],
  description: 'Manage workflow packs from releases: install, list, info, update, remove, search',
  subCommands: WORKFLOW_SUBCOMMANDS,
})
export class WorkflowCommand extends CommandRunner {
  async run(args: string[]): Promise<void> {
    if (args.length) throw unknownSubcommand(this.command, args[0]);
    throw new AwfError(
      ErrorCodes.CLI_INVALID_ARGS,
      'awf workflow needs a command',
      {},
      'Use one of: awf workflow install owner/repo[@version] | list | info <pack> | update [pack] | ' +
        'remove <pack> | search [query].',
    );
  }
}
