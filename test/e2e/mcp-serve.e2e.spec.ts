import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ECHO_EXTENSION, projectWithExtensions, runAwf, spawnAwf } from '../support/cli';
import { describeEach, launchPaths } from '../support/launch-paths';
import { connectMcpServe, type McpSession } from '../support/mcp-client';

describeEach(
  launchPaths(),
  'awf mcp-serve over stdio, driven by the MCP SDK client, with an extension module',
  (launch) => {
    let project: ReturnType<typeof projectWithExtensions>;
    let session: McpSession;

    beforeAll(async () => {
      project = projectWithExtensions([ECHO_EXTENSION]);
      session = await connectMcpServe(project.dir, { step: 'review', intercept_builtins: false }, { launch });
    }, 60_000);
    afterAll(async () => {
      await session?.close();
      project.cleanup();
    });

    it('introduces itself as awf-mcp-server with the tools capability', () => {
      expect(session.client.getServerVersion()).toMatchObject({ name: 'awf-mcp-server' });
      expect(session.client.getServerCapabilities()?.tools).toBeDefined();
    });

    it('lists the tools of an extension module, sorted by name, each with a description and object schema', async () => {
      const { tools } = await session.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['echo', 'explode', 'reject', 'scope']);
      for (const tool of tools) {
        expect(tool.description).toBeTruthy();
        expect(tool.inputSchema.type).toBe('object');
      }
    });

    it('calls a tool and hands it the step scope', async () => {
      expect(await session.client.callTool({ name: 'echo', arguments: { text: 'hello' } })).toEqual({
        content: [{ type: 'text', text: 'hello' }],
      });
      const scope = await session.client.callTool({ name: 'scope', arguments: {} });
      expect(JSON.parse((scope.content as Array<{ text: string }>)[0].text)).toMatchObject({ step: 'review' });
    });

    it('turns a throwing or rejecting tool into an isError result and keeps serving', async () => {
      const thrown = await session.client.callTool({ name: 'explode', arguments: {} });
      expect(thrown.isError).toBe(true);
      expect(JSON.stringify(thrown.content)).toContain('kaboom from explode');
      const rejected = await session.client.callTool({ name: 'reject', arguments: {} });
      expect(rejected.isError).toBe(true);
      expect(JSON.stringify(rejected.content)).toContain('rejected on purpose');
      expect(await session.client.callTool({ name: 'echo', arguments: { text: 'still alive' } })).toEqual({
        content: [{ type: 'text', text: 'still alive' }],
      });
    });

    it('answers an unknown tool with a JSON-RPC error, not a result', async () => {
      await expect(session.client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown tool: nope/);
    });

    it('answers ping', async () => {
      await expect(session.client.ping()).resolves.toEqual({});
    });

    it('logs pino JSON lines on stderr only', () => {
      const lines = session.stderr().trim().split('\n').filter(Boolean);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
      expect(lines.map((l) => JSON.parse(l).msg)).toContain('mcp-serve ready');
    });
  },
);

describe('awf mcp-serve protocol negotiation and lifecycle', () => {
  let project: ReturnType<typeof projectWithExtensions>;
  let config: string;
  beforeAll(() => {
    project = projectWithExtensions([ECHO_EXTENSION]);
    config = join(project.dir, 'proxy.json');
    writeFileSync(config, JSON.stringify({ version: 1, intercept_builtins: false, plugin_tools: [] }));
  });
  afterAll(() => project.cleanup());

  function rawSession(frames: object[]): Promise<{ code: number | null; stdout: string; ms: number }> {
    const child = spawnAwf(['mcp-serve', `--config=${config}`], { cwd: project.dir });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const started = Date.now();
    child.stdin.end(frames.map((f) => JSON.stringify(f)).join('\n') + '\n');
    return once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout, ms: Date.now() - started }));
  }

  const versions = SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v >= '2024-11-05');

  it('knows 2024-11-05 and the SDK newest version', () => {
    expect(versions).toEqual(expect.arrayContaining(['2024-11-05', LATEST_PROTOCOL_VERSION]));
  });

  it.each(versions)('echoes protocol version %s and exits 0 when stdin closes', async (version) => {
    const { code, stdout } = await rawSession([
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ]);
    expect(code).toBe(0);
    const frames = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(frames[0].result.protocolVersion).toBe(version);
    expect(frames[1].result.tools.map((t: { name: string }) => t.name)).toEqual(['echo', 'explode', 'reject', 'scope']);
  });

  it('runs Nest shutdown hooks when stdin closes', async () => {
    const mark = join(project.dir, 'shutdown-stdin.mark');
    const child = spawnAwf(['mcp-serve', `--config=${config}`], {
      cwd: project.dir,
      env: { AWF_TEST_SHUTDOWN_MARK: mark },
    });
    child.stdin.end();
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(readFileSync(mark, 'utf8')).toBe('closed\n');
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'exits 0 within 5 s of %s, running shutdown hooks',
    async (signal) => {
      const mark = join(project.dir, `shutdown-${signal}.mark`);
      const child = spawnAwf(['mcp-serve', `--config=${config}`], {
        cwd: project.dir,
        env: { AWF_LOG_LEVEL: 'info', AWF_TEST_SHUTDOWN_MARK: mark },
      });
      await new Promise<void>((resolve) =>
        child.stderr.on('data', (c: Buffer) => c.toString().includes('mcp-serve ready') && resolve()),
      );
      const started = Date.now();
      child.kill(signal);
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(existsSync(mark)).toBe(true);
    },
    60_000,
  );

  it('exits when the owner process is gone', async () => {
    const owner = spawnAwf(['--version']);
    await once(owner, 'exit');
    writeFileSync(
      config + '.owned',
      JSON.stringify({ version: 1, intercept_builtins: false, plugin_tools: [], owner_pid: owner.pid }),
    );
    const mark = join(project.dir, 'shutdown-owner.mark');
    const child = spawnAwf(['mcp-serve', `--config=${config}.owned`], {
      cwd: project.dir,
      env: { AWF_TEST_SHUTDOWN_MARK: mark },
    });
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(existsSync(mark)).toBe(true);
  }, 60_000);

  it.each([
    ['a missing file', 'missing.json', null, 'USER.MCP_PROXY.CONFIG_NOT_FOUND'],
    ['bad JSON', 'bad.json', '{invalid', 'USER.MCP_PROXY.INVALID_CONFIG'],
    [
      'a wrong type',
      'type.json',
      JSON.stringify({ version: 1, intercept_builtins: 'yes', plugin_tools: [] }),
      'intercept_builtins',
    ],
    [
      'unknown keys',
      'keys.json',
      JSON.stringify({ version: 1, intercept_builtins: true, plugin_tools: [], colour: 1, limits: { speed: 2 } }),
      'USER.MCP_PROXY.UNKNOWN_KEY',
    ],
  ])('refuses %s with exit 1, a coded message and an empty stdout', (_what, name, content, expected) => {
    const file = join(project.dir, name);
    if (content !== null) writeFileSync(file, content);
    const result = runAwf(['mcp-serve', `--config=${file}`], { cwd: project.dir, input: '' });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(expected);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('names every unknown key', () => {
    const file = join(project.dir, 'keys2.json');
    writeFileSync(
      file,
      JSON.stringify({ version: 1, intercept_builtins: true, plugin_tools: [], colour: 1, limits: { speed: 2 } }),
    );
    const result = runAwf(['mcp-serve', `--config=${file}`], { cwd: project.dir });
    expect(result.stderr).toMatch(/\[USER\.MCP_PROXY\.UNKNOWN_KEY\].*colour, limits\.speed/);
  });
});
