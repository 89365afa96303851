import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Command as Commander } from 'commander';
import { InjectCommander } from 'nest-commander';
import { registerGlobalFlags } from './global-flags';

/**
 * The root program as awf wants it, set up once nest-commander has added every command
 * (its own set-up runs in onModuleInit, so this waits for bootstrap). nest-commander puts
 * its error hook on the root only: every sub-command gets it too, or commander would call
 * process.exit itself. Errors then reach the one outcome → exit mapping (cli-errors.ts).
 */
@Injectable()
export class CliProgram implements OnApplicationBootstrap {
  constructor(@InjectCommander() private readonly program: Commander) {}

  onApplicationBootstrap(): void {
    this.program
      .name('awf')
      .description('Run AI-agent workflows written in YAML, with an MCP tool proxy per agent step.');
    registerGlobalFlags(this.program);
    const visit = (cmd: Commander): void => {
      cmd.exitOverride((err) => {
        throw err;
      });
      cmd.configureOutput({ outputError: () => undefined });
      cmd.commands.forEach((c) => visit(c as Commander));
    };
    visit(this.program);
  }
}
