import { Option, SubCommand, CommandRunner } from 'nest-commander';
import { PluginScaffolder } from '../../../infrastructure/plugins/plugin-scaffold.service';
import { globalFlags, jsonLine } from '../global-flags';

interface InitOptions {
  output?: string;
  force?: boolean;
  awf?: string;
  nest?: boolean;
}

@SubCommand({
  name: 'init',
  arguments: '<name>',
  description: 'Create a TypeScript plugin project (--nest: a Nest microservice) that builds and passes its own test',
})
export class PluginInitCommand extends CommandRunner {
  constructor(private readonly scaffolder: PluginScaffolder) {
    super();
  }

  async run([name]: string[], options: InitOptions): Promise<void> {
    const result = this.scaffolder.scaffold(name, {
      output: options.output,
      force: options.force,
      awfDependency: options.awf,
      nest: options.nest,
    });
    if (globalFlags(this.command).format === 'json') {
      process.stdout.write(jsonLine({ plugin: result.name, dir: result.dir, files: result.files }));
      return;
    }
    process.stdout.write(
      [
        `created plugin ${result.name} in ${result.dir}:`,
        ...result.files.map((f) => `  ${f}`),
        'next:',
        `  cd ${result.dir} && npm install && npm test`,
        `  awf plugin install ${result.dir}   (or --link), then: awf plugin list`,
        '',
      ].join('\n'),
    );
  }

  @Option({ flags: '-o, --output <dir>', description: 'where to create the project (default: ./<name>)' })
  parseOutput(value: string): string {
    return value;
  }

  @Option({ flags: '--force', description: 'write into a non-empty folder, overwriting the scaffold files' })
  parseForce(): boolean {
    return true;
  }

  @Option({ flags: '--nest', description: 'a Nest microservice on the gRPC transport, handlers as @GrpcMethod' })
  parseNest(): boolean {
    return true;
  }

  @Option({
    flags: '--awf <spec>',
    description: "the awf dependency in package.json (default: a copy of this awf's SDK in vendor/awf)",
  })
  parseAwf(value: string): string {
    return value;
  }
}
