import { SubCommand, CommandRunner } from 'nest-commander';
import { PackService } from '../../../infrastructure/packs/pack.service';
import { globalFlags, jsonLine } from '../global-flags';

@SubCommand({ name: 'remove', aliases: ['rm'], arguments: '<pack>', description: 'Remove an installed workflow pack' })
export class WorkflowRemoveCommand extends CommandRunner {
  constructor(private readonly packs: PackService) {
    super();
  }

  async run([name]: string[]): Promise<void> {
    const pack = this.packs.remove(name);
    if (globalFlags(this.command).format === 'json') {
      return void process.stdout.write(jsonLine({ removed: pack.name, dir: pack.dir }));
    }
    process.stdout.write(`Removed workflow pack "${pack.name}" from ${pack.dir}\n`);
  }
}
