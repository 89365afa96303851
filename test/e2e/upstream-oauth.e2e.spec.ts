import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnAwf } from '../support/cli';
import { connectMcpServe } from '../support/mcp-client';
import { awf, workflowProject } from './workflow-support';

const FIXTURES = join(__dirname, '..', 'fixtures');
const BROWSER = `${process.execPath} ${join(__dirname, '..', 'conformance', 'browser.mjs')}`;

/** A remote MCP server guarded by OAuth (the SDK's authorization-server router), on a loopback port. */
async function guardedServer(env: Record<string, string> = {}): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(FIXTURES, 'upstreams', 'oauth-protected.server.cjs')], {
    env: { ...process.env, ...env },
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  while (!/listening (\S+)/.test(out)) await once(child.stdout!, 'data');
  return { url: /listening (\S+)/.exec(out)![1], child };
}

describe('remote MCP servers that ask for OAuth: awf mcp login, then runs with the kept token', () => {
  let server: { url: string; child: ChildProcess };
  let p: ReturnType<typeof workflowProject>;

  beforeAll(async () => (server = await guardedServer()));
  afterAll(() => server.child.kill());
  beforeEach(() => {
    p = workflowProject({ '.awf/config.yaml': `mcp_servers:\n  guarded:\n    url: ${server.url}\n` });
  });
  afterEach(() => p.cleanup());

  /** A step's proxy config with the server, as `awf run` writes it (pins in the project's data dir). */
  const config = () => ({
    intercept_builtins: false,
    root_dir: p.dir,
    upstreams: [{ name: 'guarded', url: server.url }],
    pins_dir: join(p.env.XDG_DATA_HOME, 'awf', 'mcp-pins'),
  });
  const proxy = () => connectMcpServe(p.dir, config(), { env: { ...p.env, BROWSER: '' } });
  /** mcp-serve as an agent starts it, its stdin closed at once: what it says when it cannot start. */
  const failedStart = () => {
    const file = join(p.dir, 'proxy.json');
    writeFileSync(file, JSON.stringify({ version: 1, plugin_tools: [], ...config() }));
    return awf(['mcp-serve', `--config=${file}`], { cwd: p.dir, env: { ...p.env, BROWSER: '' }, input: '' });
  };

  it('a run with no token and no person to ask fails with a code naming awf mcp login', () => {
    const start = failedStart();
    expect(start.status).toBe(1);
    expect(start.stderr).toContain('[USER.MCP_PROXY.AUTH_REQUIRED] MCP server "guarded" asks for OAuth sign-in');
    expect(start.stderr).toContain('awf mcp login guarded');
  });

  it('signs in through $BROWSER, keeps the tokens 0600 and out of every output, and runs use them', async () => {
    const login = awf(['mcp', 'login', 'guarded'], { cwd: p.dir, env: { ...p.env, BROWSER } });
    expect(login.stderr).toBe('');
    expect(login.stdout).toMatch(/^signed in to MCP server "guarded"; .* \(mode 0600\); it serves 1 tool\(s\)\n$/);
    const file = join(p.env.XDG_DATA_HOME, 'awf', 'mcp-auth', 'guarded.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const token = (JSON.parse(readFileSync(file, 'utf8')) as { tokens: { access_token: string } }).tokens.access_token;
    expect(login.stdout + login.stderr).not.toContain(token);

    const again = awf(['mcp', 'login', 'guarded'], { cwd: p.dir, env: { ...p.env, BROWSER: '' } });
    expect(again.stdout).toContain('already signed in to MCP server "guarded"');

    const session = await proxy();
    try {
      const result = await session.client.callTool({ name: 'guarded_whoami', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: expect.stringMatching(/^client \S+/) }]);
      expect(session.stderr()).not.toContain(token);
    } finally {
      await session.close();
    }

    expect(awf(['mcp', 'logout', 'guarded'], { cwd: p.dir, env: p.env }).stdout).toBe(
      'signed out of MCP server "guarded"\n',
    );
    expect(failedStart().stderr).toContain('USER.MCP_PROXY.AUTH_REQUIRED');
  });

  it('without $BROWSER, login prints the URL for a person to open and finishes when they have', async () => {
    const login = spawnAwf(['mcp', 'login', 'guarded'], { cwd: p.dir, env: { ...p.env, BROWSER: '' } });
    let err = '';
    let out = '';
    login.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    login.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    while (!/open this URL in a browser:\n\s+(\S+)/.test(err)) await once(login.stderr!, 'data');
    // The person: opens the page, which sends the browser back to awf's loopback address.
    await fetch(/open this URL in a browser:\n\s+(\S+)/.exec(err)![1], { redirect: 'follow' });
    const [code] = await once(login, 'exit');
    expect(code).toBe(0);
    expect(out).toContain('signed in to MCP server "guarded"');
  });
});

describe('two runs refreshing one OAuth token at once: a file lock, one refresh, both served', () => {
  let server: { url: string; child: ChildProcess };
  let p: ReturnType<typeof workflowProject>;

  // The first refresh is answered after 5 s, or as soon as a second refresh comes: both proxies,
  // refused (401) at once, surely race. Without the lock the second spends the refresh token again.
  beforeAll(async () => (server = await guardedServer({ OAUTH_REFRESH_HOLD_MS: '5000' })));
  afterAll(() => server.child.kill());
  beforeEach(() => {
    p = workflowProject({ '.awf/config.yaml': `mcp_servers:\n  guarded:\n    url: ${server.url}\n` });
  });
  afterEach(() => p.cleanup());

  it('only one process refreshes (refresh tokens are single-use); the other reads the fresh token', async () => {
    expect(awf(['mcp', 'login', 'guarded'], { cwd: p.dir, env: { ...p.env, BROWSER } }).status).toBe(0);
    const file = join(p.env.XDG_DATA_HOME, 'awf', 'mcp-auth', 'guarded.json');
    const tokens = () => (JSON.parse(readFileSync(file, 'utf8')) as { tokens: Record<string, string> }).tokens;
    const signedIn = tokens();
    expect(signedIn.refresh_token).toEqual(expect.any(String));
    await fetch(new URL('/test/expire', server.url), { method: 'POST' }); // every access token expires

    const config = {
      intercept_builtins: false,
      root_dir: p.dir,
      upstreams: [{ name: 'guarded', url: server.url }],
      pins_dir: join(p.env.XDG_DATA_HOME, 'awf', 'mcp-pins'),
    };
    const sessions = await Promise.all(
      [1, 2].map(() => connectMcpServe(p.dir, config, { env: { ...p.env, BROWSER: '' } })),
    );
    try {
      for (const session of sessions) {
        const result = await session.client.callTool({ name: 'guarded_whoami', arguments: {} });
        expect(result.content).toEqual([{ type: 'text', text: expect.stringMatching(/^client \S+/) }]);
      }
    } finally {
      await Promise.all(sessions.map((s) => s.close()));
    }
    const counts = (await (await fetch(new URL('/test/counts', server.url))).json()) as Record<string, number>;
    expect(counts).toEqual({ unauthorized: 2, refreshes: 1, spent: 0 });
    expect(tokens().refresh_token).not.toBe(signedIn.refresh_token);
    expect(tokens().access_token).not.toBe(signedIn.access_token);
  });
});
