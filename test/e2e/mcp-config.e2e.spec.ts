import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAwf, scratchDir } from '../support/cli';

jest.setTimeout(120_000);

/** `awf mcp-config`: an entry a client can start as it is, written without losing the user's config. */
describe('awf mcp-config', () => {
  let p: ReturnType<typeof scratchDir>;
  let env: Record<string, string>;
  beforeEach(() => {
    p = scratchDir({ 'project/hello.txt': 'hello from mcp-config\n' });
    env = { HOME: p.dir, XDG_CONFIG_HOME: join(p.dir, 'config'), XDG_CACHE_HOME: join(p.dir, 'cache') };
  });
  afterEach(() => p.cleanup());
  const project = () => realpathSync(join(p.dir, 'project'));

  it('prints an entry whose command, the one a user would type, serves the six tools held to --root', async () => {
    const r = runAwf(['mcp-config', '--root', project()], { env, timeout: 60_000 });
    expect(r.status).toBe(0);
    const { mcpServers } = JSON.parse(r.stdout) as { mcpServers: { awf: { command: string; args: string[] } } };
    const { command, args } = mcpServers.awf;
    expect(command).toBe(process.execPath);
    expect(args.slice(0, 3)).toEqual([
      '--max-semi-space-size=4',
      expect.stringMatching(/dist\/main\.js$/),
      'mcp-serve',
    ]);
    const configArg = args.find((a) => a.startsWith('--config='))!;
    expect(r.stderr).toContain(`proxy config: ${configArg.slice('--config='.length)}`);
    expect(JSON.parse(readFileSync(configArg.slice('--config='.length), 'utf8'))).toEqual({
      version: 1,
      intercept_builtins: true,
      plugin_tools: [],
      root_dir: project(),
    });

    // As a client would start it: the printed command, nothing else, from another directory.
    const transport = new StdioClientTransport({
      command,
      args,
      cwd: p.dir,
      env: { PATH: process.env.PATH ?? '' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'mcp-config-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['Bash', 'Edit', 'Glob', 'Grep', 'Read', 'Write']);
      const read = await client.callTool({ name: 'Read', arguments: { file_path: join(project(), 'hello.txt') } });
      expect(JSON.stringify(read.content)).toContain('hello from mcp-config');
      const outside = await client.callTool({ name: 'Read', arguments: { file_path: join(p.dir, 'config') } });
      expect(outside.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('--write merges into the client config, keeping the rest, and a second run replaces only its own entry', () => {
    const settings = join(p.dir, '.gemini', 'settings.json');
    runAwf(['mcp-config', '--client', 'gemini', '--write', '--root', project()], { env });
    const first = JSON.parse(readFileSync(settings, 'utf8')) as Record<string, Record<string, unknown>>;
    writeFileSync(
      settings,
      JSON.stringify({ ...first, ui: { theme: 'dark' }, mcpServers: { ...first.mcpServers, other: { command: 'x' } } }),
    );
    const r = runAwf(['mcp-config', '--client', 'gemini', '--write', '--root', project()], { env });
    expect(r.stderr).toContain(`added MCP server "awf" to ${settings}`);
    expect(r.status).toBe(0);
    const after = JSON.parse(readFileSync(settings, 'utf8')) as Record<string, Record<string, unknown>>;
    expect(after.ui).toEqual({ theme: 'dark' });
    expect(Object.keys(after.mcpServers).sort()).toEqual(['awf', 'other']);
    expect(after.mcpServers.awf).toEqual(first.mcpServers.awf);
  });

  it('names an entry an earlier awf wrote with a startup snapshot, rewrites it, then drops the stale cache', () => {
    const settings = join(p.dir, '.gemini', 'settings.json');
    const cache = join(p.dir, 'cache', 'awf', 'snapshots');
    mkdirSync(cache, { recursive: true });
    writeFileSync(join(cache, 'v20.blob'), 'old');
    const old = {
      command: process.execPath,
      args: ['--snapshot-blob', join(cache, 'v20.blob'), 'main.js', 'mcp-serve'],
    };
    mkdirSync(join(p.dir, '.gemini'));
    writeFileSync(settings, JSON.stringify({ mcpServers: { mine: old, other: { command: 'x' } } }));

    const printed = runAwf(['mcp-config', '--root', project()], { env });
    expect(printed.status).toBe(0);
    expect(printed.stderr).toContain(
      `${settings}: server "mine" starts awf from a startup snapshot, which awf no longer builds; ` +
        'rewrite it with: awf mcp-config --client gemini --name mine --write',
    );
    expect(existsSync(cache)).toBe(true); // still referenced: the old entry keeps working until rewritten

    const rewritten = runAwf(['mcp-config', '--client', 'gemini', '--name', 'mine', '--write', '--root', project()], {
      env,
    });
    expect(rewritten.status).toBe(0);
    expect(rewritten.stderr).not.toContain('startup snapshot');
    const after = JSON.parse(readFileSync(settings, 'utf8')) as { mcpServers: Record<string, { args?: string[] }> };
    expect(after.mcpServers.mine.args).not.toContain('--snapshot-blob');
    expect(after.mcpServers.other).toEqual({ command: 'x' });
    expect(existsSync(cache)).toBe(false);
  });

  it('leaves a client config it cannot read safely alone, and says why', () => {
    const file = join(project(), '.mcp.json');
    writeFileSync(file, '{ // my servers\n}\n');
    const r = runAwf(['mcp-config', '--write', '--root', project()], { env });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`[USER.CONFIG.INVALID] ${file} is not plain JSON`);
    expect(r.stdout).toBe('');
    expect(readFileSync(file, 'utf8')).toBe('{ // my servers\n}\n');
  });

  it.each([
    [['--client', 'cursor'], 'unknown MCP client "cursor"'],
    [['--root', '/nonexistent/awf-root'], '--root /nonexistent/awf-root is not a directory'],
    [['--name', 'a b'], 'server name "a b" is not a plain name'],
  ])('refuses %j with a USER.CLI code', (args, message) => {
    const r = runAwf(['mcp-config', ...args], { env });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`[USER.CLI.INVALID_ARGS] ${message}`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
