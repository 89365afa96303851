import { Option, SubCommand, CommandRunner } from 'nest-commander';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import { globalFlags, jsonLine } from '../global-flags';
import { renderTable } from '../table.renderer';
import { PluginCatalogService, type PluginListing } from '../../../infrastructure/plugins/plugin-catalog.service';

interface ListOptions {
  operations?: boolean;
  details?: boolean;
}

@SubCommand({
  name: 'list',
  aliases: ['ls'],
  description: 'List installed plugins: name, version, status and operations',
})
export class PluginListCommand extends CommandRunner {
  constructor(private readonly catalog: PluginCatalogService) {
    super();
  }

  async run(_args: string[], options: ListOptions = {}): Promise<void> {
    if (options.operations && options.details) {
      throw new AwfError(
        ErrorCodes.CLI_INVALID_ARGS,
        '--operations and --details cannot be used together',
        {},
        'Pick one: --operations (one row per operation) or --details (everything about each plugin).',
      );
    }
    const plugins = await this.catalog.list();
    const flags = globalFlags(this.command);
    if (flags.format === 'json') return void process.stdout.write(jsonLine({ plugins }));
    const bordered = flags.format === 'table';
    if (plugins.length === 0)
      return void process.stdout.write(
        'No plugins installed (searched AWF_PLUGINS_PATH, else ./.awf/plugins and $XDG_DATA_HOME/awf/plugins).\n',
      );
    process.stdout.write(
      options.operations
        ? renderTable(operationRows(plugins), bordered)
        : options.details
          ? plugins.map(renderDetails).join('\n')
          : renderTable(pluginRows(plugins), bordered),
    );
  }

  @Option({ flags: '--operations', description: 'one row per operation, with its description' })
  parseOperations(): boolean {
    return true;
  }

  @Option({ flags: '--details', description: 'everything about each plugin: folder, description, problem' })
  parseDetails(): boolean {
    return true;
  }
}

function pluginRows(plugins: PluginListing[]): string[][] {
  return [
    ['NAME', 'VERSION', 'STATUS', 'OPERATIONS'],
    ...plugins.map((p) => [
      p.name,
      p.version || '-',
      p.status,
      p.operations.map((o) => o.name).join(', ') || (p.problem ? `- (${p.problem.split('\n')[0]})` : '-'),
    ]),
  ];
}

function operationRows(plugins: PluginListing[]): string[][] {
  return [
    ['PLUGIN', 'OPERATION', 'TOOL', 'DESCRIPTION'],
    ...plugins.flatMap((p) =>
      p.operations.length
        ? p.operations.map((o) => [p.name, o.name, `${p.name}_${o.name}`, o.description])
        : [[p.name, '-', '-', `(${p.status}${p.problem ? `: ${p.problem.split('\n')[0]}` : ''})`]],
    ),
  ];
}

function renderDetails(p: PluginListing): string {
  const lines = [
    `${p.name} ${p.version || '-'} (${p.status})`,
    ...(p.description ? [`  description: ${p.description}`] : []),
    `  folder:      ${p.dir}`,
    ...(p.status === 'disabled' ? [`  enable with: awf plugin enable ${p.name}`] : []),
    ...(p.operations.length
      ? ['  operations:', ...p.operations.map((o) => `    ${p.name}_${o.name}  ${o.description}`.trimEnd())]
      : []),
    ...(p.problem ? ['  problem:', ...p.problem.split('\n').map((l) => `    ${l}`)] : []),
  ];
  return `${lines.join('\n')}\n`;
}
