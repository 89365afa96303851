import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { serve, type Served } from '../support/awf-serve';
import { runAwfAsync } from '../support/cli';
import { workflowProject } from './workflow-support';

jest.setTimeout(120_000);

const TOKEN = 'exac'.repeat(10);
const CONFIG = `mcp_profiles:
  careful:
    tools: [Read, Write]
    policy:
      approve: ["Write"]
`;

/** Exact approvals (ADR 265) end to end: answered over HTTP, granted, listed and revoked with the CLI. */
describe('exact approvals through awf serve /mcp, the HTTP API and awf approvals', () => {
  const project = workflowProject({ '.awf/config.yaml': CONFIG });
  const auth = { authorization: `Bearer ${TOKEN}` };
  let server: Served;
  let client: Client;
  const cli = (args: string[]) => runAwfAsync(['approvals', ...args], { cwd: project.dir, env: project.env });
  const pending = async (): Promise<Array<Record<string, unknown>>> => {
    const res = await fetch(`${server.url}/api/approvals`, { headers: auth });
    return ((await res.json()) as { body: { approvals: Array<Record<string, unknown>> } }).body.approvals;
  };
  const question = async (): Promise<Record<string, unknown>> => {
    for (;;) {
      const [first] = await pending();
      if (first) return first;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const answer = (id: unknown, body: Record<string, unknown>) =>
    fetch(`${server.url}/api/executions/mcp-careful/approvals/${id as string}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const write = (path: string, content = 'same') =>
    client.callTool({ name: 'Write', arguments: { file_path: path, content } });

  beforeAll(async () => {
    // A question nobody answers is denied in 2 s: a call that asked shows as refused.
    server = await serve(project, ['--mcp-profile', 'careful'], {
      AWF_API_TOKEN: TOKEN,
      AWF_APPROVAL_TIMEOUT_MS: '2000',
    });
    client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: auth } }),
    );
  });
  afterAll(async () => {
    await client?.close();
    server?.child.kill('SIGTERM');
    await server?.exit;
    project.cleanup();
  });

  it('an answer with scope exact approves the same call again without asking, and no other', async () => {
    const bad = await answer('x', { decision: 'approve', scope: 'once', expires: '1h' });
    expect(bad.status).toBe(400); // `expires` goes with scope exact alone
    const first = write('a.txt');
    const asked = await question();
    expect((await answer(asked.approval_id, { decision: 'approve', scope: 'exact', expires: 'soon' })).status).toBe(
      400,
    );
    const ok = await answer(asked.approval_id, { decision: 'approve', scope: 'exact', expires: '30m' });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { body: Record<string, unknown> }).body).toMatchObject({ scope: 'exact' });
    expect((await first).isError).toBeFalsy();

    expect((await write('a.txt')).isError).toBeFalsy(); // not asked: nobody answers, and it ran
    const other = await write('a.txt', 'different');
    expect(other.isError).toBe(true); // asked, unanswered: denied
    const audit = readFileSync(join(project.env.XDG_DATA_HOME, 'awf', 'serve', 'mcp.events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(audit.slice(-3).map((e) => e.policy.approval)).toEqual([
      expect.objectContaining({ scope: 'exact', by: 'person', who: 'env', expires: expect.any(String) }),
      expect.objectContaining({ scope: 'exact', by: 'person', who: 'env' }),
      expect.objectContaining({ answer: 'deny', by: 'timeout' }),
    ]);

    const listed = await fetch(`${server.url}/api/approvals/exact`, { headers: auth });
    const kept = ((await listed.json()) as { body: { approvals: Array<Record<string, unknown>> } }).body.approvals;
    expect(kept).toEqual([
      expect.objectContaining({ tool: 'Write', who: 'env', args: { file_path: 'a.txt', content: 'same' } }),
    ]);
    const file = join(project.env.XDG_DATA_HOME, 'awf', 'approvals', 'exact.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const del = await fetch(`${server.url}/api/approvals/exact/${kept[0].id as string}`, {
      method: 'DELETE',
      headers: auth,
    });
    expect(del.status).toBe(204);
    expect((await write('a.txt')).isError).toBe(true); // revoked: asked again
  });

  it('awf approvals grant approves ahead of time; list shows it; revoke makes the call ask again', async () => {
    const args = JSON.stringify({ file_path: 'b.txt', content: 'granted' });
    const granted = await cli(['grant', 'Write', '--args', args, '--expires', '10m', '--mcp-profile', 'careful']);
    expect(granted.status).toBe(0);
    const id = /granted (\S+):/.exec(granted.stdout)![1];
    expect((await client.callTool({ name: 'Write', arguments: JSON.parse(args) })).isError).toBeFalsy();
    expect(readFileSync(join(project.dir, 'b.txt'), 'utf8')).toBe('granted');

    const list = await cli(['list']);
    expect(list.stdout).toMatch(new RegExp(`${id}\\s+Write\\s+\\{"file_path":"b.txt","content":"granted"\\}\\s+cli`));
    const json = JSON.parse((await cli(['list', '-f', 'json'])).stdout) as { approvals: Array<{ id: string }> };
    expect(json.approvals.map((a) => a.id)).toEqual([id]);

    // Granted under another profile's policy (default), it does not hold under careful's.
    expect((await cli(['grant', 'Write', '--args', '{"file_path":"c.txt","content":"x"}'])).status).toBe(0);
    expect((await write('c.txt', 'x')).isError).toBe(true);

    expect((await cli(['revoke', id])).stdout).toContain(`revoked ${id} (Write)`);
    expect((await client.callTool({ name: 'Write', arguments: JSON.parse(args) })).isError).toBe(true);
    const again = await cli(['revoke', id]);
    expect([again.status, again.stderr]).toEqual([1, expect.stringContaining('USER.POLICY.APPROVAL_NOT_FOUND')]);
    const bad = await cli(['grant', 'Write', '--args', '[1]']);
    expect([bad.status, bad.stderr]).toEqual([1, expect.stringContaining('--args must be a JSON object')]);
  });
});
