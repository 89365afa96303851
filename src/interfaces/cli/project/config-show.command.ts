import { Command, CommandRunner, SubCommand } from 'nest-commander';
import { ConfigShowService } from '../../../application/project/config-show.service';
import type { ConfigReport } from '../../../domain/ports/effective-config.port';
import { globalFlags, jsonLine, type OutputFormat } from '../global-flags';
import { renderTable } from '../table.renderer';

/** `awf config show`: the settings awf runs with here, secrets masked, each with its source. */
@SubCommand({ name: 'show', description: 'Print the effective settings (secrets masked) and where each comes from' })
export class ConfigShowCommand extends CommandRunner {
  constructor(private readonly config: ConfigShowService) {
    super();
  }

  async run(): Promise<void> {
    const flags = globalFlags(this.command);
    const logLevelFrom = flags.logLevel ? '--log-level' : flags.verbose ? '--verbose' : flags.quiet ? '-q' : undefined;
    const report = this.config.show({ storage: flags.storage, logLevelFrom });
    process.stdout.write(renderConfig(report, flags.format));
  }
}

@Command({
  name: 'config',
  description: 'Show the project configuration: awf config show',
  subCommands: [ConfigShowCommand],
})
export class ConfigCommand extends CommandRunner {
  async run(): Promise<void> {
    this.command.help();
  }
}

/** AWF's JSON (`path`, `exists`, `inputs`) plus every setting; quiet prints the input names, as AWF does. */
function renderConfig(report: ConfigReport, format: OutputFormat): string {
  const path = report.file ?? '.awf/config.yaml';
  if (format === 'json')
    return jsonLine({ path, exists: report.file !== undefined, inputs: report.inputs, settings: report.settings });
  if (format === 'quiet')
    return Object.keys(report.inputs)
      .sort()
      .map((k) => `${k}\n`)
      .join('');
  const head = report.file ? `Config: ${report.file}\n\n` : `Config: none (${path} not found; defaults apply)\n\n`;
  const rows = [['KEY', 'VALUE', 'SOURCE'], ...report.settings.map((s) => [s.key, show(s.value), s.source])];
  return head + renderTable(rows, format === 'table');
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
