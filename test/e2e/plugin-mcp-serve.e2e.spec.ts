import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { REPO_ROOT, runAwf } from '../support/cli';
import { describeEach, launchPaths } from '../support/launch-paths';
import { connectMcpServe, type McpSession } from '../support/mcp-client';

// Real processes on a shared two-core machine: generous bounds, never timing assertions.
jest.setTimeout(180_000);

const EXAMPLES = resolve(REPO_ROOT, 'examples/plugins');
/** The suite shares two cores with other work; a CLI run may take far longer than usual. */
const SLOW_MACHINE_MS = 90_000;
type Content = Array<{ type: string; text: string }>;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describeEach(launchPaths(), 'awf mcp-serve exposes the time and kv example plugins to the MCP SDK client', (launch) => {
  const dir = mkdtempSync(join(tmpdir(), 'awf-plugin-e2e-'));
  const env = {
    AWF_PLUGINS_PATH: EXAMPLES,
    XDG_DATA_HOME: join(dir, 'xdg'),
    AWF_KV_FILE: join(dir, 'kv.json'),
    AWF_PLUGIN_HANDSHAKE_TIMEOUT_MS: '30000',
  };
  let session: McpSession;

  beforeAll(async () => {
    session = await connectMcpServe(
      dir,
      {
        intercept_builtins: false,
        plugin_tools: [
          { plugin: 'time', expose: ['now'] },
          { plugin: 'kv', expose: ['get', 'set', 'list'] },
        ],
      },
      { env: { ...env, AWF_LOG_LEVEL: 'debug' }, launch },
    );
  });
  afterAll(async () => {
    await session?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes on the title and MCP annotations a plugin declares; a plugin that declares none has none', async () => {
    const { tools } = await session.client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.kv_get).toMatchObject({
      title: 'Read a key',
      annotations: { readOnlyHint: true, openWorldHint: false },
    });
    expect(byName.kv_get.annotations).not.toHaveProperty('destructiveHint');
    expect(byName.kv_set).toMatchObject({
      title: 'Store a key',
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    });
    // time's operation (like any plugin built before annotations existed) declares none.
    expect(byName.time_now).not.toHaveProperty('annotations');
    expect(byName.time_now).not.toHaveProperty('title');
  });

  it('lists <plugin>_<operation> tools with descriptions and input schemas', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['kv_get', 'kv_list', 'kv_set', 'time_now']);
    const list = tools.find((t) => t.name === 'kv_list')!;
    expect(list.description).toContain('Lists the keys');
    expect(list.inputSchema).toEqual({
      type: 'object',
      properties: {
        prefix: { type: 'string', description: 'Only keys that start with this.' },
        limit: { type: 'integer', default: 100, description: 'At most this many keys.' },
      },
      required: [],
    });
    expect(tools.find((t) => t.name === 'time_now')!.description).toContain(
      'Returns a JSON object with fields: iso8601 (string)',
    );
  });

  it('calls time_now and gets the time as JSON text and structuredContent', async () => {
    const res = await session.client.callTool({ name: 'time_now', arguments: {} });
    expect(res.isError).toBeFalsy();
    const structured = res.structuredContent as Record<string, unknown>;
    expect(JSON.parse((res.content as Content)[0].text)).toEqual(structured);
    expect(Math.abs((structured.unix as number) - Date.now() / 1000)).toBeLessThan(600);
    expect(structured.iso8601).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('stores, reads and lists keys through kv, in the JSON file the plugin owns', async () => {
    await session.client.callTool({ name: 'kv_set', arguments: { key: 'city', value: 'Lyon' } });
    await session.client.callTool({ name: 'kv_set', arguments: { key: 'country', value: 'France' } });
    const replaced = await session.client.callTool({ name: 'kv_set', arguments: { key: 'city', value: 'Paris' } });
    expect(replaced.structuredContent).toEqual({ key: 'city', replaced: true });
    expect((await session.client.callTool({ name: 'kv_get', arguments: { key: 'city' } })).structuredContent).toEqual({
      key: 'city',
      value: 'Paris',
    });
    expect(
      (await session.client.callTool({ name: 'kv_list', arguments: { prefix: 'c', limit: 1 } })).structuredContent,
    ).toEqual({ keys: ['city'], total: 2 });
    expect(JSON.parse(readFileSync(env.AWF_KV_FILE, 'utf8'))).toEqual({ city: 'Paris', country: 'France' });
  });

  it('returns plugin errors and invalid inputs as isError results the agent can read', async () => {
    const missing = await session.client.callTool({ name: 'kv_get', arguments: { key: 'planet' } });
    expect(missing).toMatchObject({ isError: true, content: [{ type: 'text', text: 'key "planet" is not set' }] });
    const badKey = await session.client.callTool({ name: 'kv_set', arguments: { key: 'no spaces', value: 'x' } });
    expect((badKey.content as Content)[0].text).toContain('invalid key "no spaces"');
    const badType = await session.client.callTool({ name: 'kv_list', arguments: { limit: 'ten' } });
    expect(badType).toMatchObject({
      isError: true,
      content: [{ text: 'invalid inputs: limit must be an integer, got "ten"' }],
    });
  });

  it('logs plugin start-up under the plugin name and stops the plugins when the client goes away', async () => {
    const started = session
      .stderr()
      .split('\n')
      .filter((l) => l.includes('"plugin started"'))
      .map((l) => JSON.parse(l) as { plugin: string; plugin_pid: number; tls: boolean });
    expect(started.map((s) => s.plugin).sort()).toEqual(['kv', 'time']);
    expect(started.every((s) => s.tls)).toBe(true);
    await session.close();
    const deadline = Date.now() + 10_000;
    while (started.some((s) => alive(s.plugin_pid)) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(started.filter((s) => alive(s.plugin_pid))).toEqual([]);
  });
});

describe('awf mcp-serve refuses plugin_tools it cannot serve, before serving anything', () => {
  const dir = mkdtempSync(join(tmpdir(), 'awf-plugin-e2e-'));
  const env = {
    AWF_PLUGINS_PATH: EXAMPLES,
    XDG_DATA_HOME: join(dir, 'xdg'),
    AWF_KV_FILE: join(dir, 'kv.json'),
    AWF_PLUGIN_HANDSHAKE_TIMEOUT_MS: '30000',
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const serve = (pluginTools: unknown[]) => {
    const file = join(dir, `proxy-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify({ version: 1, intercept_builtins: false, plugin_tools: pluginTools }));
    return runAwf(['mcp-serve', `--config=${file}`], { cwd: dir, env, timeout: SLOW_MACHINE_MS });
  };

  it('exits 1 with UNKNOWN_PLUGIN for a plugin that is not installed', () => {
    const res = serve([{ plugin: 'weather', expose: ['now'] }]);
    expect(res.status).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('[USER.MCP_PROXY.UNKNOWN_PLUGIN] plugin "weather" is not installed');
    expect(res.stderr).toContain('Installed plugins: kv, time');
  });

  it('exits 1 with UNKNOWN_OPERATION, naming what the plugin offers', () => {
    const res = serve([{ plugin: 'kv', expose: ['get', 'delete'] }]);
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('[USER.MCP_PROXY.UNKNOWN_OPERATION] operation "delete" not found in plugin "kv"');
    expect(res.stderr).toContain('hint: Plugin kv offers: get, set, list.');
  });
});

describe('awf mcp-serve without plugins does not load gRPC', () => {
  const dir = mkdtempSync(join(tmpdir(), 'awf-plugin-e2e-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers tools/list without ever requiring @grpc/grpc-js or proto-loader', async () => {
    const report = join(dir, 'modules.json');
    const hook = join(dir, 'report-modules.js');
    writeFileSync(
      hook,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify(Object.keys(require.cache))));\n`,
    );
    const session = await connectMcpServe(
      dir,
      { intercept_builtins: true },
      { env: { AWF_NO_BUNDLE: '1', NODE_OPTIONS: `--require ${hook}` } },
    );
    await session.client.listTools();
    await session.close();
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      try {
        readFileSync(report);
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const modules = JSON.parse(readFileSync(report, 'utf8')) as string[];
    expect(modules.some((m) => m.includes('/dist/main.js'))).toBe(true);
    expect(modules.filter((m) => m.includes('@grpc/'))).toEqual([]);
  });
});
