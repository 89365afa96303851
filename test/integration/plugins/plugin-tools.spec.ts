import { Test, type TestingModule } from '@nestjs/testing';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildToolScope } from '../../../src/infrastructure/config/tool-scope.resolver';
import type { ToolRouter } from '../../../src/domain/ports/tool-router.port';
import type { ToolRouterFactory } from '../../../src/domain/ports/tool-router-factory.port';
import { resultText, type ToolResult } from '../../../src/domain/model/tool-result';
import { TOOL_ROUTER_FACTORY } from '../../../src/domain/ports/tokens';
import type { PluginToolSpec } from '../../../src/domain/proxy/proxy-config';
import { CoreModule } from '../../../src/infrastructure/core/core.module';
import { PluginHost } from '../../../src/infrastructure/plugins/plugin-host.service';
import { PluginsModule } from '../../../src/infrastructure/plugins/plugins.module';
import { EXAMPLE_PLUGINS, fixturePlugins, isAlive } from './plugin-fixtures';

// Real processes on a shared two-core machine: generous bounds, never timing assertions.
jest.setTimeout(180_000);

const text = (r: ToolResult) => resultText(r);

describe('plugin tools through the ToolRouterService (PluginsModule wired by Nest)', () => {
  const dataHome = mkdtempSync(join(tmpdir(), 'awf-plugins-data-'));
  const fixtures = fixturePlugins({
    crashy: { operations: { crash: { behaviour: 'crash' }, echo: {}, pid: { behaviour: 'pid' } } },
    slow: { operations: { sleep: { behaviour: 'sleep' }, echo: { behaviour: 'pid' } } },
    a: { operations: { b_c: {} } },
    a_b: { operations: { c: {} } },
    bad: { operations: { tags: { inputs: { tags: { type: 'array' } } } } },
    'a-plugin-name-long-enough-to-matter': { operations: { an_operation_whose_name_is_long_too: {} } },
  });
  const saved = { path: process.env.AWF_PLUGINS_PATH, xdg: process.env.XDG_DATA_HOME, kv: process.env.AWF_KV_FILE };
  let app: TestingModule;
  let factory: ToolRouterFactory;
  const open: ToolRouter[] = [];

  const dispatcher = async (pluginTools: PluginToolSpec[]) => {
    const d = await factory.open(buildToolScope({ version: 1, intercept_builtins: false, plugin_tools: pluginTools }));
    open.push(d);
    return d;
  };

  beforeAll(async () => {
    process.env.AWF_PLUGINS_PATH = `${fixtures.dir}:${EXAMPLE_PLUGINS}`;
    process.env.XDG_DATA_HOME = dataHome;
    process.env.AWF_PLUGIN_HANDSHAKE_TIMEOUT_MS = '30000'; // the shared test machine is noisy
    process.env.AWF_KV_FILE = join(dataHome, 'kv.json');
    app = await Test.createTestingModule({ imports: [CoreModule, PluginsModule] }).compile();
    await app.init();
    factory = app.get(TOOL_ROUTER_FACTORY);
  });
  afterAll(async () => {
    await Promise.all(open.map((d) => d.close()));
    await app.close();
    Object.assign(process.env, { AWF_PLUGINS_PATH: saved.path, XDG_DATA_HOME: saved.xdg, AWF_KV_FILE: saved.kv });
    fixtures.cleanup();
    rmSync(dataHome, { recursive: true, force: true });
  });

  it('lists <plugin>_<operation> tools with mapped schemas, starting only the named plugins', async () => {
    const d = await dispatcher([
      { plugin: 'kv', expose: ['set', 'get'] },
      { plugin: 'time', expose: ['now'] },
    ]);
    expect(d.list().map((t) => [t.name, t.source])).toEqual([
      ['kv_get', 'plugin:kv'],
      ['kv_set', 'plugin:kv'],
      ['time_now', 'plugin:time'],
    ]);
    const set = d.list().find((t) => t.name === 'kv_set')!;
    expect(set.inputSchema).toEqual({
      type: 'object',
      properties: {
        key: { type: 'string', description: 'The key to write.' },
        value: { type: 'string', description: 'The value to store.' },
      },
      required: ['key', 'value'],
    });
    expect(set.description).toContain('Returns a JSON object with fields: key (string); replaced (boolean)');
    const host = app.get(PluginHost);
    expect(['kv', 'time', 'crashy', 'slow'].map((n) => host.isRunning(n))).toEqual([true, true, false, false]);
  });

  it('returns outputs as JSON text and structuredContent, and plugin errors as isError', async () => {
    const d = await dispatcher([{ plugin: 'kv', expose: ['set', 'get'] }]);
    expect((await d.call('kv_set', { key: 'colour', value: 'teal' })).structuredContent).toEqual({
      key: 'colour',
      replaced: false,
    });
    const got = await d.call('kv_get', { key: 'colour' });
    expect(got).toEqual({
      content: [{ type: 'text', text: '{"key":"colour","value":"teal"}' }],
      structuredContent: { key: 'colour', value: 'teal' },
    });
    const missing = await d.call('kv_get', { key: 'nope' });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toBe('key "nope" is not set');
    const invalid = await d.call('kv_set', { key: 'x' });
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toContain('value is required');
  });

  it('turns a crash mid-call into an isError naming the plugin and its stderr, keeps other tools working, and restarts it', async () => {
    const d = await dispatcher([
      { plugin: 'crashy', expose: ['crash', 'echo', 'pid'] },
      { plugin: 'time', expose: ['now'] },
    ]);
    const before = (await d.call('crashy_pid', {})).structuredContent!.pid as number;
    const crashed = await d.call('crashy_crash', {});
    expect(crashed.isError).toBe(true);
    expect(text(crashed)).toContain('plugin crashy crashed during crashy_crash (it exited with code 3)');
    expect(text(crashed)).toContain('about to crash: the disk is on fire');
    expect((await d.call('time_now', {})).isError).toBeUndefined();
    const [one, two] = await Promise.all([d.call('crashy_pid', {}), d.call('crashy_pid', {})]);
    const after = one.structuredContent!.pid as number;
    expect(two.structuredContent!.pid).toBe(after); // two callers share one restart
    expect(after).not.toBe(before);
    expect((await d.call('crashy_echo', { n: 1 })).structuredContent).toEqual({ echoed: { n: 1 } });
    expect(isAlive(before)).toBe(false);
  });

  it('stops restarting a plugin that keeps crashing', async () => {
    const d = await dispatcher([{ plugin: 'crashy', expose: ['crash', 'echo'] }]);
    let last = await d.call('crashy_crash', {});
    for (let i = 0; i < 4 && !text(last).includes('no longer restarts'); i++) last = await d.call('crashy_crash', {});
    expect(last.isError).toBe(true);
    expect(text(last)).toMatch(/plugin crashy crashed \d+ times; awf no longer restarts it/);
  });

  it('serves a fast call while a slow one is pending, and cancels the slow one on abort', async () => {
    const d = await dispatcher([{ plugin: 'slow', expose: ['sleep', 'echo'] }]);
    const abort = new AbortController();
    let slowDone = false;
    const slow = d.call('slow_sleep', { ms: 60_000 }, { signal: abort.signal }).finally(() => (slowDone = true));
    expect((await d.call('slow_echo', {})).structuredContent).toHaveProperty('pid');
    expect(slowDone).toBe(false);
    abort.abort();
    const cancelled = await slow;
    expect(cancelled.isError).toBe(true);
    expect(text(cancelled)).toContain('slow_sleep was cancelled');
    expect((await d.call('slow_echo', {})).isError).toBeUndefined();
  });

  it('refuses an unknown plugin, an unknown operation and a duplicate entry with USER codes', async () => {
    await expect(dispatcher([{ plugin: 'weather', expose: ['now'] }])).rejects.toMatchObject({
      code: 'USER.MCP_PROXY.UNKNOWN_PLUGIN',
      message: 'plugin "weather" is not installed',
    });
    await expect(dispatcher([{ plugin: 'time', expose: ['tomorrow'] }])).rejects.toMatchObject({
      code: 'USER.MCP_PROXY.UNKNOWN_OPERATION',
      message: 'operation "tomorrow" not found in plugin "time"',
      hint: 'Plugin time offers: now.',
    });
    await expect(
      dispatcher([
        { plugin: 'time', expose: ['now'] },
        { plugin: 'time', expose: ['now'] },
      ]),
    ).rejects.toMatchObject({ code: 'USER.MCP_PROXY.NAME_COLLISION' });
  });

  it("fails on two plugins whose tool names coincide, and passes on a plugin's own start-up error", async () => {
    await expect(
      dispatcher([
        { plugin: 'a', expose: ['b_c'] },
        { plugin: 'a_b', expose: ['c'] },
      ]),
    ).rejects.toMatchObject({
      code: 'USER.MCP_PROXY.NAME_COLLISION',
      message: 'tool "a_b_c" is served by both plugin:a and plugin:a_b',
    });
    const err = (await dispatcher([{ plugin: 'bad', expose: ['tags'] }]).catch((e: unknown) => e)) as Error;
    expect(err).toMatchObject({ code: 'EXECUTION.PLUGIN.HANDSHAKE_FAILED' });
    expect(err.message).toContain('input tags.tags has type "array"');
  });

  it('refuses a tool name longer than MCP clients accept', async () => {
    await expect(
      dispatcher([{ plugin: 'a-plugin-name-long-enough-to-matter', expose: ['an_operation_whose_name_is_long_too'] }]),
    ).rejects.toMatchObject({
      code: 'USER.MCP_PROXY.INVALID_TOOL_NAME',
      message: expect.stringContaining(
        'tool name "a-plugin-name-long-enough-to-matter_an_operation_whose_name_is_long_too" from plugin:a-plugin-name-long-enough-to-matter is not allowed',
      ),
    });
  });

  it('hands the plugin its config from plugins.json at Init', async () => {
    const host = app.get(PluginHost);
    await host.stop('kv');
    const file = join(dataHome, 'from-config.json');
    mkdirSync(join(dataHome, 'awf/plugins'), { recursive: true });
    writeFileSync(
      join(dataHome, 'awf/plugins/plugins.json'),
      JSON.stringify({ kv: { enabled: true, config: { file } } }),
    );
    const d = await dispatcher([{ plugin: 'kv', expose: ['set'] }]);
    expect((await d.call('kv_set', { key: 'via', value: 'config' })).isError).toBeUndefined();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ via: 'config' });
    await host.stop('kv');
  });

  it('stops every plugin process when the module is destroyed', async () => {
    const d = await dispatcher([
      { plugin: 'slow', expose: ['echo'] },
      { plugin: 'a', expose: ['b_c'] },
    ]);
    const host = app.get(PluginHost);
    const pid = (await d.call('slow_echo', {})).structuredContent!.pid as number;
    expect(isAlive(pid)).toBe(true);
    await host.onModuleDestroy();
    expect(isAlive(pid)).toBe(false);
    expect(['kv', 'time', 'crashy', 'slow', 'a'].some((n) => host.isRunning(n))).toBe(false);
  });
});
