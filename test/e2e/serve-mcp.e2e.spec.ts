import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { serve, type Served } from '../support/awf-serve';
import { workflowProject } from './workflow-support';

jest.setTimeout(120_000);

const TOKEN = 'mcp0'.repeat(10);
const CONFIG = `mcp_profiles:
  writer:
    tools: [Read, Write]
    policy:
      paths: {deny: ["secret/**"]}
  careful:
    tools: [Read, Write]
    policy:
      approve: ["Write"]
`;

const text = (r: { content?: unknown }): string =>
  ((r.content ?? []) as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('');

describe("awf serve's /mcp: the proxy over Streamable HTTP", () => {
  const project = workflowProject({ 'README.md': 'hello over http\n', '.awf/config.yaml': CONFIG });
  const servers: Served[] = [];
  const start = async (args: string[] = [], env = {}): Promise<Served> => {
    const s = await serve(project, args, env);
    servers.push(s);
    return s;
  };
  const connect = async (url: string, headers: Record<string, string> = {}): Promise<Client> => {
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
    return client;
  };
  afterAll(async () => {
    for (const s of servers) {
      s.child.kill('SIGTERM');
      await s.exit;
    }
    project.cleanup();
  });

  it('serves the read-only built-ins by default to the SDK client, and to a 2025-era client', async () => {
    const server = await start();
    expect(server.out()).toContain(`MCP endpoint ${server.url}/mcp (profile default: Read, Glob, Grep)`);
    const client = await connect(server.url);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['Glob', 'Grep', 'Read']);
    const read = await client.callTool({ name: 'Read', arguments: { file_path: 'README.md' } });
    expect(text(read)).toContain('hello over http');
    const write = await client.callTool({ name: 'Write', arguments: { file_path: 'x.txt', content: 'x' } });
    expect([write.isError, text(write)]).toEqual([
      true,
      expect.stringContaining('mcp_profiles.default: tools.deny "Write"'),
    ]);
    expect(existsSync(join(project.dir, 'x.txt'))).toBe(false);
    await client.close();
    // The v1 SDK speaks 2025-11-25: it gets a session.
    const old = new ClientV1({ name: 'old', version: '1.0.0' });
    await old.connect(new TransportV1(new URL(`${server.url}/mcp`)));
    expect((await old.listTools()).tools.map((t) => t.name).sort()).toEqual(['Glob', 'Grep', 'Read']);
    await old.close();
  });

  it("serves a named profile's tools under its policy, and audits each call", async () => {
    const server = await start(['--mcp-profile', 'writer']);
    const client = await connect(server.url);
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['Read', 'Write']);
    const wrote = await client.callTool({ name: 'Write', arguments: { file_path: 'notes.txt', content: 'via /mcp' } });
    expect(wrote.isError).toBeFalsy();
    expect(readFileSync(join(project.dir, 'notes.txt'), 'utf8')).toBe('via /mcp');
    const refused = await client.callTool({ name: 'Write', arguments: { file_path: 'secret/k', content: 'x' } });
    expect([refused.isError, text(refused)]).toEqual([true, expect.stringContaining('POLICY.PATH_DENIED')]);
    await client.close();
    const audit = readFileSync(join(project.env.XDG_DATA_HOME, 'awf', 'serve', 'mcp.events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(audit.slice(-2)).toEqual([
      expect.objectContaining({ tool: 'Write', step: 'mcp writer', status: 'ok' }),
      expect.objectContaining({
        tool: 'Write',
        status: 'error',
        policy: expect.objectContaining({ decision: 'denied' }),
      }),
    ]);
  });

  it('a call under an approve rule waits for a person in the API and the dashboard, who answers it', async () => {
    const server = await start(['--mcp-profile', 'careful'], { AWF_API_TOKEN: TOKEN });
    const auth = { authorization: `Bearer ${TOKEN}` };
    const client = await connect(server.url, auth);
    const pending = async () => {
      for (;;) {
        const res = await fetch(`${server.url}/api/approvals`, { headers: auth });
        const { approvals } = ((await res.json()) as { body: { approvals: Array<Record<string, unknown>> } }).body;
        if (approvals.length) return approvals[0];
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const answer = (id: string, decision: string) =>
      fetch(`${server.url}/api/executions/mcp-careful/approvals/${id}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ decision }),
      });
    const call = (path: string) =>
      client.callTool({ name: 'Write', arguments: { file_path: path, content: 'asked first' } });

    const approved = call('asked.txt');
    const question = await pending();
    expect(question).toMatchObject({
      execution_id: 'mcp-careful',
      source: 'mcp',
      tool: 'Write',
      rule: expect.any(String),
    });
    expect((await answer(question.approval_id as string, 'approve')).status).toBe(200);
    expect((await approved).isError).toBeFalsy();
    expect(readFileSync(join(project.dir, 'asked.txt'), 'utf8')).toBe('asked first');

    const denied = call('refused.txt');
    expect((await answer((await pending()).approval_id as string, 'deny')).status).toBe(200);
    expect([(await denied).isError, text(await denied)]).toEqual([true, expect.stringContaining('POLICY.APPROVAL')]);
    expect(existsSync(join(project.dir, 'refused.txt'))).toBe(false);
    await client.close();
    const audit = readFileSync(join(project.env.XDG_DATA_HOME, 'awf', 'serve', 'mcp.events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(audit.slice(-2).map((e) => e.policy.approval)).toEqual([
      expect.objectContaining({ answer: 'approve', by: 'person', who: 'env' }),
      expect.objectContaining({ answer: 'deny', by: 'person', who: 'env' }),
    ]);
  });

  it('needs the token like the rest of the API, and refuses an unknown profile', async () => {
    const server = await start([], { AWF_API_TOKEN: TOKEN });
    await expect(connect(server.url)).rejects.toThrow(/401/);
    const client = await connect(server.url, { authorization: `Bearer ${TOKEN}` });
    expect((await client.listTools()).tools).toHaveLength(3);
    await client.close();
    await expect(start(['--mcp-profile', 'nope'])).rejects.toThrow(
      /--mcp-profile "nope" is not a profile of .awf\/config.yaml \(known: default, writer, careful\)/,
    );
  });

  it("keeps a 2025-era client's session for the token that opened it", async () => {
    writeFileSync(join(project.dir, 'tokens.txt'), `alice ${'a'.repeat(40)}\nbob ${'b'.repeat(40)}\n`, { mode: 0o600 });
    const server = await start(['--token-file', 'tokens.txt']);
    const as = (who: string) => ({ authorization: `Bearer ${who[0].repeat(40)}` });
    const old = new ClientV1({ name: 'old', version: '1.0.0' });
    const transport = new TransportV1(new URL(`${server.url}/mcp`), { requestInit: { headers: as('alice') } });
    await old.connect(transport);
    expect(transport.sessionId).toBeDefined();
    const list = (who: string) =>
      fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: {
          ...as(who),
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': transport.sessionId!,
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      });
    expect((await list('bob')).status).toBe(404);
    expect((await list('alice')).status).toBe(200);
    await transport.terminateSession();
    expect((await list('alice')).status).toBe(404);
    await old.close();
  });
});
