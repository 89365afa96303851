import { SubCommand, CommandRunner } from 'nest-commander';
import { globalFlags, jsonLine } from './global-flags';
import { PluginCatalogService, type PluginListing } from '../../infrastructure/plugins/plugin-catalog.service';

@SubCommand({ name: 'list', description: 'List installed plugins: name, version, status and operations' })
export class PluginListCommand extends CommandRunner {
  constructor(private readonly catalog: PluginCatalogService) {
    super();
  }

  async run(_args: string[]): Promise<void> {
    const plugins = await this.catalog.list();
    process.stdout.write(globalFlags(this.command).format === 'json' ? jsonLine({ plugins }) : renderTable(plugins));
  }
}

function renderTable(plugins: PluginListing[]): string {
  if (plugins.length === 0)
    return 'No plugins installed (searched AWF_PLUGINS_PATH, else ./.awf/plugins and $XDG_DATA_HOME/awf/plugins).\n';
  const rows = [
    ['NAME', 'VERSION', 'STATUS', 'OPERATIONS'],
    ...plugins.map((p) => [
      p.name,
      p.version || '-',
      p.status,
      p.operations.map((o) => o.name).join(', ') || (p.problem ? `- (${p.problem.split('\n')[0]})` : '-'),
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ')).join('\n') + '\n';
}
