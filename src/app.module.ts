// AppModule: what every command's container holds (the project's `.awf/config.yaml` as the CLI
// read it, CoreModule's shared tokens), then the command's own modules (chosen by the CLI's
// composition root, interfaces/cli/command-table.ts) and the user's extension modules. Must never
// import interfaces/: the CLI depends on the root, not the other way.
import { type DynamicModule, Module } from '@nestjs/common';
import type { ProjectConfig } from './infrastructure/config/project-config.loader';
import { ProjectConfigModule } from './infrastructure/config/project-config.module';
import { CoreModule } from './infrastructure/core/core.module';
import { HistoryFlagModule } from './infrastructure/history/history-flag.module';

type Importable = NonNullable<DynamicModule['imports']>[number];

@Module({})
export class AppModule {
  /** The container of one command: the shared modules, the command's, the extensions. */
  static register(
    options: {
      extensions?: readonly unknown[];
      commandModules?: readonly Importable[];
      project?: ProjectConfig;
      /** `--history URL`: the shared history the command's HistoryModule opens. */
      history?: string;
    } = {},
  ): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ProjectConfigModule.forRoot(options.project),
        CoreModule,
        HistoryFlagModule.forRoot(options.history),
        ...(options.commandModules ?? []),
        ...((options.extensions ?? []) as Importable[]),
      ],
    };
  }
}
