import { Command, CommandRunner, Option } from 'nest-commander';
import { McpServeService } from '../../../application/serve/mcp-serve.service';

/** Hidden: agents start it through the config that `awf run` hands them. */
@Command({
  name: 'mcp-serve',
  description: 'Serve the tools of one agent step over MCP stdio (started by agents, not by hand)',
  options: { hidden: true },
})
export class McpServeCommand extends CommandRunner {
  constructor(private readonly service: McpServeService) {
    super();
  }

  async run(_args: string[], options: { config: string }): Promise<void> {
    await this.service.serve(options.config);
  }

  @Option({ flags: '--config <file>', description: 'the step proxy config written by awf run', required: true })
  parseConfig(value: string): string {
    return value;
  }

  // Read before the container is built (startup-argv.ts), like the global flags; declared for --help.
  @Option({ flags: '--skip-plugins', description: 'look for no plugins (what `awf run --skip-plugins` passes on)' })
  parseSkipPlugins(): boolean {
    return true;
  }
}
