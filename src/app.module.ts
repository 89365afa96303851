// AppModule: the composition root. One container for every command: CoreModule, the
// feature modules, the CLI, and the user's extension modules from .awf/config.yaml.
import { type DynamicModule, Module } from '@nestjs/common';
import { CoreModule } from './infrastructure/core/core.module';
import { AgentsModule } from './infrastructure/agents/agents.module';
import { PluginsModule } from './infrastructure/plugins/plugins.module';
import { ToolsModule } from './infrastructure/tools/tools.module';
import { CliModule } from './interfaces/cli/cli.module';

type Importable = NonNullable<DynamicModule['imports']>[number];

@Module({})
export class AppModule {
  static register(options: { extensions?: readonly unknown[] } = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [CoreModule, ToolsModule, PluginsModule, AgentsModule, CliModule, ...((options.extensions ?? []) as Importable[])],
    };
  }
}
