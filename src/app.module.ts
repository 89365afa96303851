// AppModule: the composition root. One container per process: CoreModule, the feature
// modules, the CLI, and the user's extension modules from .awf/config.yaml.
// Which modules depends on the command (docs/adr/092-perf-command-scoped-container.md):
// `awf mcp-serve` starts once per agent step, so it builds only PROXY_MODULES and the
// serve command; every other command gets the full CLI, required on demand so that the
// proxy never even evaluates it. A module the proxy serves through (tool sources, call
// interceptors, telemetry of tool calls) goes in PROXY_MODULES; anything else in fullCli().
import { type DynamicModule, Module } from '@nestjs/common';
import { CoreModule } from './infrastructure/core/core.module';
import { ProxyModule } from './infrastructure/mcp/proxy.module';
import { PluginsModule } from './infrastructure/plugins/plugins.module';
import { TelemetryModule } from './infrastructure/telemetry/telemetry.module';
import { ToolsModule } from './infrastructure/tools/tools.module';

type Importable = NonNullable<DynamicModule['imports']>[number];

const PROXY_MODULES: Importable[] = [CoreModule, TelemetryModule, ToolsModule, PluginsModule];

/* eslint-disable @typescript-eslint/no-require-imports -- loaded per command, see above */
const serveCli = (): Importable[] => [(require('./interfaces/cli/serve-cli.module') as typeof import('./interfaces/cli/serve-cli.module')).ServeCliModule];
const fullCli = (): Importable[] => [
  (require('./infrastructure/history/history.module') as typeof import('./infrastructure/history/history.module')).HistoryModule,
  (require('./infrastructure/agents/agents.module') as typeof import('./infrastructure/agents/agents.module')).AgentsModule,
  (require('./interfaces/cli/cli.module') as typeof import('./interfaces/cli/cli.module')).CliModule,
];
/* eslint-enable @typescript-eslint/no-require-imports */

@Module({})
export class AppModule {
  static register(options: { extensions?: readonly unknown[]; command?: string } = {}): DynamicModule {
    const cli = options.command === 'mcp-serve' ? serveCli() : fullCli();
    return {
      module: AppModule,
      imports: [...PROXY_MODULES, ...cli, ...((options.extensions ?? []) as Importable[])],
    };
  }

  /**
   * The container of `awf mcp-serve` started from the startup snapshot: the same proxy modules
   * and extensions, the serve service without its nest-commander command (ADR 094).
   */
  static serve(options: { extensions?: readonly unknown[] } = {}): DynamicModule {
    return { module: AppModule, imports: [...PROXY_MODULES, ProxyModule, ...((options.extensions ?? []) as Importable[])] };
  }
}
