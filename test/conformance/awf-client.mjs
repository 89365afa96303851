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

/** The calls the scenario expects an agent to make, as each kind of scenario says it. */
function scenarioCalls(tools) {
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
  // 2026-07-28 scenarios name them in their context.
  if (Array.isArray(context.toolCalls)) return context.toolCalls.map((c) => [c.name, c.arguments ?? {}]);
  // The sign-in scenarios' servers check what a call carries (a token with the right scope): call each tool.
  if (scenario.startsWith('auth/')) return tools.map((t) => [t.name, {}]);
  // The schema awf listed, handed back verbatim: what the server sees is what awf passed on.
  if (scenario === 'json-schema-2020-12-preservation') {
    const listed = tools.find((t) => t.name === 'json_schema_2020_12_tool');
    return listed ? [['json_schema_echo', { schema: listed.inputSchema }]] : [];
  }
  // Each tool of these servers is one check: the invalid ones are not listed, the MRTR ones ask back.
  if (['http-invalid-tool-headers', 'sep-2322-client-request-state'].includes(scenario))
    return tools.map((t) => [t.name, {}]);
  return CALLS[scenario] ?? [];
}

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', '..', 'dist', 'main.js');
const dir = mkdtempSync(join(tmpdir(), 'awf-conformance-'));
/** What a user would write under the server's `oauth:` for this scenario (its context: credentials). */
function oauth() {
  if (!scenario.startsWith('auth/')) return undefined;
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
  const spec = { client_metadata_url: 'https://conformance-test.local/client-metadata.json' };
  if (scenario.startsWith('auth/client-credentials')) {
    spec.grant = 'client_credentials';
    spec.client_id = context.client_id;
    if (context.private_key_pem) {
      spec.private_key_file = join(dir, 'client-key.pem');
      writeFileSync(spec.private_key_file, context.private_key_pem, { mode: 0o600 });
    } else spec.client_secret = context.client_secret;
  } else if (context.client_id) {
    Object.assign(spec, { client_id: context.client_id, client_secret: context.client_secret });
  }
  return spec;
}
const config = join(dir, 'proxy.json');
const auth = oauth();
writeFileSync(
  config,
  JSON.stringify({
    version: 1,
    intercept_builtins: false,
    plugin_tools: [],
    root_dir: dir,
    pins_dir: join(dir, 'pins'),
    upstreams: [{ name: 'scenario', url, prefix: '', ...(auth ? { oauth: auth } : {}) }],
  }),
  { mode: 0o600 },
);
const agent = new Client({ name: 'awf-conformance-agent', version: '1.0.0' }, { capabilities: { elicitation: {} } });
// An agent that accepts whatever is asked, sending nothing of its own: defaults are the client's job.
agent.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: {} }));
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [dist, 'mcp-serve', `--config=${config}`],
  env: { ...process.env, BROWSER: `${process.execPath} ${join(here, 'browser.mjs')}` },
});
let failed = false;
try {
  await agent.connect(transport);
  const { tools } = await agent.listTools();
  console.log(`awf lists ${tools.length} tool(s) of the scenario's server: ${tools.map((t) => t.name).join(', ')}`);
  const calls = scenarioCalls(tools);
  for (const [name, args] of calls) {
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
