import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProxyConfig } from '../../src/domain/proxy/proxy-config';
import { PLAIN, type LaunchPath } from './launch-paths';

export interface McpSession {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  close: () => Promise<void>;
}

/**
 * Spawns `awf mcp-serve` on a config written into `dir`, connected with the official SDK client;
 * started as `launch` says (test/support/launch-paths.ts), plain `node dist/main.js` by default.
 */
export async function connectMcpServe(
  dir: string,
  config: Record<string, unknown>,
  options: {
    cwd?: string;
    env?: Record<string, string>;
    protocolVersion?: string;
    launch?: LaunchPath;
    /** What the agent's client declares (e.g. elicitation); none by default. */
    capabilities?: ClientCapabilities;
  } = {},
): Promise<McpSession> {
  const file = join(dir, `proxy-${Math.random().toString(36).slice(2)}.json`);
  // The tool pins go where `awf run` would put them, never in the data dir of whoever runs the tests.
  const full = { version: 1, intercept_builtins: true, plugin_tools: [], pins_dir: join(dir, 'mcp-pins'), ...config };
  writeFileSync(file, JSON.stringify(full), { mode: 0o600 });
  const { command, args } = (options.launch ?? PLAIN).launch(file, full as unknown as ProxyConfig);
  const transport = new StdioClientTransport({
    command,
    args,
    cwd: options.cwd ?? dir,
    env: { ...(process.env as Record<string, string>), AWF_LOG_LEVEL: 'info', ...options.env },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const client = new Client({ name: 'awf-test', version: '1.0.0' }, { capabilities: options.capabilities ?? {} });
  await client.connect(transport);
  return { client, transport, stderr: () => err, close: () => client.close() };
}
