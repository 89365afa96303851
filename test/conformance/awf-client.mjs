// The client the MCP conformance suite's client scenarios test: awf's upstream client, as an agent
// step meets it. The suite runs `node awf-client.mjs <url>` with MCP_CONFORMANCE_SCENARIO set; this
// starts the built `awf mcp-serve` with the scenario's server as its one upstream (unprefixed),
// and an agent (the SDK's Client over stdio) lists the tools and calls the one the scenario
// expects, so every request the scenario's server sees comes from awf.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const url = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const CALLS = {
  initialize: [],
  tools_call: [['add_numbers', { a: 5, b: 3 }]],
  'sse-retry': [['test_reconnection', {}]],
  'elicitation-sep1034-client-defaults': [['test_client_elicitation_defaults', {}]],
};

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'main.js');
const dir = mkdtempSync(join(tmpdir(), 'awf-conformance-'));
const config = join(dir, 'proxy.json');
writeFileSync(
  config,
  JSON.stringify({
    version: 1,
    intercept_builtins: false,
    plugin_tools: [],
    root_dir: dir,
    pins_dir: join(dir, 'pins'),
    upstreams: [{ name: 'scenario', url, prefix: '' }],
  }),
  { mode: 0o600 },
);
const agent = new Client({ name: 'awf-conformance-agent', version: '1.0.0' }, { capabilities: { elicitation: {} } });
// An agent that accepts whatever is asked, sending nothing of its own: defaults are the client's job.
agent.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: {} }));
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [dist, 'mcp-serve', `--config=${config}`],
});
let failed = false;
try {
  await agent.connect(transport);
  const { tools } = await agent.listTools();
  console.log(`awf lists ${tools.length} tool(s) of the scenario's server: ${tools.map((t) => t.name).join(', ')}`);
  for (const [name, args] of CALLS[scenario] ?? []) {
    const result = await agent.callTool({ name, arguments: args });
    console.log(`${name}: ${result.isError ? 'error' : 'ok'} ${JSON.stringify(result.content)}`);
  }
} catch (error) {
  failed = true;
  console.error(`awf-client: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await agent.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
