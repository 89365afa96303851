/** The one MCP server a per-run Vibe config names: the step's proxy. */
export interface VibeMcpServer {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

const HEADER = /^\s*\[\[?\s*([^\]\s]+)\s*\]\]?\s*(#.*)?$/;
const TOP_LEVEL_SERVERS = /^\s*mcp_servers\s*=/;

/**
 * The user's Vibe `config.toml` without their MCP servers (the `[[mcp_servers]]` tables, their
 * sub-tables, or a top-level `mcp_servers = [...]`), everything else kept as written, then
 * `server` as the only `[[mcp_servers]]`. TOML strings are written as JSON strings, whose
 * escapes TOML's basic strings share.
 */
export function vibeConfigWithProxy(userConfig: string, server: VibeMcpServer): string {
  const kept: string[] = [];
  let inTable = false;
  let skipping = false;
  let openBrackets = 0;
  for (const line of userConfig.split('\n')) {
    if (openBrackets > 0) {
      openBrackets += bracketBalance(line);
      continue;
    }
    const header = HEADER.exec(line);
    if (header) {
      inTable = true;
      skipping = header[1] === 'mcp_servers' || header[1].startsWith('mcp_servers.');
    } else if (!inTable && TOP_LEVEL_SERVERS.test(line)) {
      openBrackets = bracketBalance(line);
      continue;
    }
    if (!skipping) kept.push(line);
  }
  const q = (s: string) => JSON.stringify(s);
  const env = Object.entries(server.env).map(([k, v]) => `${q(k)} = ${q(v)}`);
  const block = [
    '[[mcp_servers]]',
    `name = ${q(server.name)}`,
    'transport = "stdio"',
    `command = ${q(server.command)}`,
    `args = [${server.args.map(q).join(', ')}]`,
    `env = { ${env.join(', ')} }`,
  ];
  const head = kept.join('\n').trim();
  return `${head ? `${head}\n\n` : ''}${block.join('\n')}\n`;
}

/** `[` minus `]` outside strings: how far a multi-line array is still open. */
function bracketBalance(line: string): number {
  const code = line.replace(/"(?:\\.|[^"\\])*"|'[^']*'/g, '').replace(/#.*$/, '');
  return (code.match(/\[/g)?.length ?? 0) - (code.match(/\]/g)?.length ?? 0);
}
