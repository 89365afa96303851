import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AWF_MAIN } from './cli';

export interface McpSession {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  close: () => Promise<void>;
}

/** Spawns `awf mcp-serve` on a config written into `dir`, connected with the official SDK client. */
export async function connectMcpServe(
  dir: string,
  config: Record<string, unknown>,
  options: { cwd?: string; env?: Record<string, string>; protocolVersion?: string; launch?: (configFile: string) => { command: string; args: string[] } } = {},
): Promise<McpSession> {
  const file = join(dir, `proxy-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify({ version: 1, intercept_builtins: true, plugin_tools: [], ...config }), { mode: 0o600 });
  const launch = options.launch?.(file) ?? { command: process.execPath, args: [AWF_MAIN, 'mcp-serve', `--config=${file}`] };
  const transport = new StdioClientTransport({
    command: launch.command,
    args: launch.args,
    cwd: options.cwd ?? dir,
    env: { ...(process.env as Record<string, string>), AWF_LOG_LEVEL: 'info', ...options.env },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const client = new Client({ name: 'awf-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, stderr: () => err, close: () => client.close() };
}
