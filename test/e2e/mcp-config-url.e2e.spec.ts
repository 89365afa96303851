import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { serve, type Served } from '../support/awf-serve';
import { runAwfAsync } from '../support/cli';
import { workflowProject } from './workflow-support';

jest.setTimeout(120_000);

const TOKEN = 'urlf'.repeat(10);

interface HttpEntry {
  type: string;
  url: string;
  headers: Record<string, string>;
}

/** What Claude Code does with the entry: `${VAR}` in a header is the variable's value from its environment. */
const expand = (value: string, env: Record<string, string>): string =>
  value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => env[name] ?? '');

describe('awf mcp-config --url: an MCP client that connects to awf serve /mcp by URL', () => {
  const project = workflowProject({ 'README.md': 'read through the URL form\n' });
  const home = join(project.dir, 'home');
  let server: Served;
  const mcpConfig = (args: string[]) =>
    runAwfAsync(['mcp-config', ...args], { cwd: project.dir, env: { ...project.env, HOME: home } });
  beforeAll(async () => {
    server = await serve(project, [], { AWF_API_TOKEN: TOKEN });
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exit;
    project.cleanup();
  });

  it("the SDK client, reading Claude Code's entry as Claude Code would, calls Read through /mcp", async () => {
    const printed = await mcpConfig(['--client', 'claude', '--url', server.url, '--write']);
    expect(printed.status).toBe(0);
    const { awf } = (JSON.parse(printed.stdout) as { mcpServers: { awf: HttpEntry } }).mcpServers;
    expect(awf).toEqual({
      type: 'http',
      url: `${server.url}/mcp`,
      headers: { Authorization: 'Bearer ${AWF_API_TOKEN}' },
    });
    // The token is in neither the output nor the client's config file.
    const file = join(home, '.claude.json');
    expect(readFileSync(file, 'utf8')).not.toContain(TOKEN);
    expect(printed.stdout + printed.stderr).not.toContain(TOKEN);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const written = (JSON.parse(readFileSync(file, 'utf8')) as { mcpServers: { awf: HttpEntry } }).mcpServers.awf;
    expect(written).toEqual(awf);

    const env = { AWF_API_TOKEN: TOKEN };
    const headers = Object.fromEntries(Object.entries(written.headers).map(([k, v]) => [k, expand(v, env)]));
    const client = new Client({ name: 'claude-entry', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(written.url), { requestInit: { headers } }));
    const read = await client.callTool({ name: 'Read', arguments: { file_path: 'README.md' } });
    expect(JSON.stringify(read.content)).toContain('read through the URL form');
    await client.close();

    // Without the variable set, the header carries no token: the server refuses the client.
    const bare = new Client({ name: 'no-token', version: '1.0.0' });
    const empty = { Authorization: expand(written.headers.Authorization, {}) };
    await expect(
      bare.connect(new StreamableHTTPClientTransport(new URL(written.url), { requestInit: { headers: empty } })),
    ).rejects.toThrow(/401|nauthori/);
  });

  it('names the variable the client reads, for each client in its own syntax, and refuses a bad URL', async () => {
    const codex = await mcpConfig(['--client', 'codex', '--url', `${server.url}/mcp`, '--token-env', 'MY_TOKEN']);
    expect(codex.stdout).toBe(`[mcp_servers.awf]\nurl = "${server.url}/mcp"\nbearer_token_env_var = "MY_TOKEN"\n`);
    const gemini = JSON.parse((await mcpConfig(['--client', 'gemini', '--url', server.url])).stdout) as {
      mcpServers: { awf: Record<string, unknown> };
    };
    expect(gemini.mcpServers.awf).toEqual({
      httpUrl: `${server.url}/mcp`,
      headers: { Authorization: 'Bearer $AWF_API_TOKEN' },
    });
    const bad = await mcpConfig(['--url', 'http://me:secret@127.0.0.1:1/']);
    expect([bad.status, bad.stderr]).toEqual([1, expect.stringContaining('USER.CLI.INVALID_ARGS')]);
    expect(bad.stderr).not.toContain('secret');
  });
});
