import type { Command as Commander } from 'commander';
import { Command, CommandRunner } from 'nest-commander';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import { completionTree, type Shell, SHELLS } from './completion-model';
import { fishCompletion } from './fish-completion.script';
import { powershellCompletion } from './powershell-completion.script';
import { bashCompletion, zshCompletion } from './sh-completion.script';

const SCRIPTS: Record<Shell, typeof bashCompletion> = {
  bash: bashCompletion,
  zsh: zshCompletion,
  fish: fishCompletion,
  powershell: powershellCompletion,
};

/** `awf completion bash|zsh|fish|powershell`: a completion script for the shell, made from the live command tree. */
@Command({
  name: 'completion',
  arguments: '<shell>',
  description: 'Print a shell completion script: source <(awf completion bash), or zsh, fish, powershell',
})
export class CompletionCommand extends CommandRunner {
  async run([shell]: string[]): Promise<void> {
    if (!(SHELLS as readonly string[]).includes(shell)) {
      throw new AwfError(
        ErrorCodes.CLI_INVALID_ARGS,
        `no completion for shell "${shell}"`,
        { shell },
        `Use one of: ${SHELLS.map((s) => `awf completion ${s}`).join(', ')}.`,
      );
    }
    let root: Commander = this.command;
    while (root.parent) root = root.parent;
    process.stdout.write(SCRIPTS[shell as Shell](completionTree(root)));
  }
}
