import type { DynamicModule } from '@nestjs/common';

type Importable = NonNullable<DynamicModule['imports']>[number];

/**
 * The CLI modules a command's container holds (docs/adr/092-perf-command-scoped-container.md):
 * `awf mcp-serve` starts once per agent step, so it gets only its own command; every other
 * command gets the whole CLI and the agent providers. Required on demand, so the proxy never
 * even evaluates the rest.
 */
export function commandModules(command: string | undefined): Importable[] {
  if (command === 'mcp-serve')
    return [(require('./serve-cli.module') as typeof import('./serve-cli.module')).ServeCliModule];
  return [
    (
      require('../../infrastructure/history/history.module') as typeof import('../../infrastructure/history/history.module')
    ).HistoryModule,
    (require('../../infrastructure/agents/agents.module') as typeof import('../../infrastructure/agents/agents.module'))
      .AgentsModule,
    (require('./cli.module') as typeof import('./cli.module')).CliModule,
  ];
}
