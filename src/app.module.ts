// AppModule: the composition root. One container per process: CoreModule, the proxy's modules,
// the modules of the command being run (chosen by the CLI, interfaces/cli/command-modules.ts),
// and the user's extension modules from .awf/config.yaml. A module the proxy serves through (tool
// sources, call interceptors, telemetry of tool calls) goes in PROXY_MODULES; anything else is the
// CLI's to add. Must never import interfaces/: the CLI depends on the root, not the other way.
import { type DynamicModule, Module } from '@nestjs/common';
import type { ProjectConfig } from './infrastructure/config/project-config.loader';
import { ProjectConfigModule } from './infrastructure/config/project-config.module';
import { CoreModule } from './infrastructure/core/core.module';
import { ProxyModule } from './infrastructure/mcp-edge/proxy.module';
import { PluginsModule } from './infrastructure/plugins/plugins.module';
import { PolicyModule } from './infrastructure/policy/policy.module';
import { TelemetryModule } from './infrastructure/telemetry/telemetry.module';
import { ToolsModule } from './infrastructure/tools/tools.module';
import { UpstreamsModule } from './infrastructure/upstreams/upstreams.module';

type Importable = NonNullable<DynamicModule['imports']>[number];

const PROXY_MODULES: Importable[] = [
  CoreModule,
  TelemetryModule,
  ToolsModule,
  PluginsModule,
  PolicyModule,
  UpstreamsModule,
];

@Module({})
export class AppModule {
  /**
   * The container of one CLI command: the proxy's modules, the command's own, the extensions,
   * and `project`, the `.awf/config.yaml` the CLI read (read here when not given).
   */
  static register(
    options: { extensions?: readonly unknown[]; commandModules?: readonly Importable[]; project?: ProjectConfig } = {},
  ): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ProjectConfigModule.forRoot(options.project),
        ...PROXY_MODULES,
        ...(options.commandModules ?? []),
        ...((options.extensions ?? []) as Importable[]),
      ],
    };
  }

  /**
   * The container of `awf mcp-serve` started from the startup snapshot: the same proxy modules
   * and extensions, the serve service without its nest-commander command (ADR 094).
   */
  static serve(options: { extensions?: readonly unknown[] } = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [...PROXY_MODULES, ProxyModule, ...((options.extensions ?? []) as Importable[])],
    };
  }
}
