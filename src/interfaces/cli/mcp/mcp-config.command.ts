import { Command, CommandRunner, Option } from 'nest-commander';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import { MCP_CLIENTS, type McpClient } from '../../../infrastructure/agents/mcp-client-entry';
import { McpConfigService } from '../../../infrastructure/agents/mcp-config.service';

interface McpConfigOptions {
  client?: McpClient;
  write?: boolean;
  root?: string;
  name?: string;
  url?: string;
  tokenEnv?: string;
}

/** `awf mcp-config`: the MCP server entry that starts this awf's proxy, for an MCP client (README). */
@Command({
  name: 'mcp-config',
  description:
    "Print (or --write) the MCP server entry that starts this awf's tool proxy (or, with --url, connects to " +
    "awf serve's /mcp), for Claude Code, Codex, Gemini CLI, OpenCode or plain mcpServers JSON",
})
export class McpConfigCommand extends CommandRunner {
  constructor(private readonly configs: McpConfigService) {
    super();
  }

  async run(_args: string[], options: McpConfigOptions): Promise<void> {
    const note = (line: string): void => void process.stderr.write(`${line}\n`);
    const result = this.configs.make({
      client: options.client ?? 'json',
      root: options.root,
      name: options.name ?? 'awf',
      write: !!options.write,
      ...(options.url !== undefined ? { url: options.url } : {}),
      ...(options.tokenEnv ? { tokenVar: options.tokenEnv } : {}),
      note,
    });
    process.stdout.write(result.entry);
    if (result.proxyConfig) note(`proxy config: ${result.proxyConfig}`);
    if (result.written) note(`added MCP server "${options.name ?? 'awf'}" to ${result.written}`);
  }

  @Option({ flags: '--client <client>', description: `${MCP_CLIENTS.join(', ')} (default json: {"mcpServers": …})` })
  parseClient(value: string): McpClient {
    if ((MCP_CLIENTS as readonly string[]).includes(value)) return value as McpClient;
    throw new AwfError(
      ErrorCodes.CLI_INVALID_ARGS,
      `unknown MCP client "${value}"`,
      { client: value },
      `Use --client ${MCP_CLIENTS.join(', ')}.`,
    );
  }

  @Option({
    flags: '--write',
    description: "merge the entry into the client's own config file, keeping its other entries",
  })
  parseWrite(): boolean {
    return true;
  }

  @Option({
    flags: '--root <dir>',
    description: 'the directory the tools are held to (default: the working directory)',
  })
  parseRoot(value: string): string {
    return value;
  }

  @Option({
    flags: '--url <url>',
    description: "connect by URL to a running awf serve's /mcp (its address) instead of starting a proxy",
  })
  parseUrl(value: string): string {
    return value;
  }

  @Option({
    flags: '--token-env <var>',
    description: 'with --url: the environment variable the client reads the serve token from (default AWF_API_TOKEN)',
  })
  parseTokenEnv(value: string): string {
    if (/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(value)) return value;
    throw new AwfError(
      ErrorCodes.CLI_INVALID_ARGS,
      `--token-env "${value}" is not an environment variable name`,
      { tokenEnv: value },
      'Use letters, digits and _ (not starting with a digit), e.g. --token-env AWF_API_TOKEN.',
    );
  }

  @Option({ flags: '--name <name>', description: 'the server name in the client config (default: awf)' })
  parseName(value: string): string {
    if (/^[A-Za-z0-9_-]{1,40}$/.test(value)) return value;
    throw new AwfError(
      ErrorCodes.CLI_INVALID_ARGS,
      `server name "${value}" is not a plain name`,
      { name: value },
      'Use letters, digits, - and _ (at most 40).',
    );
  }
}
