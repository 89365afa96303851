import { Test, type TestingModule } from '@nestjs/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildToolScope } from '../../src/infrastructure/config/tool-scope.resolver';
import type { ToolRouterFactory } from '../../src/domain/ports/tool-router-factory.port';
import { TOOL_ROUTER_FACTORY } from '../../src/domain/ports/tokens';
import type { PluginToolSpec } from '../../src/domain/proxy/proxy-config';
import { CoreModule } from '../../src/infrastructure/core/core.module';
import { PluginHost } from '../../src/infrastructure/plugins/plugin-host.service';
import { PluginsModule } from '../../src/infrastructure/plugins/plugins.module';
import { fixturePlugins, isAlive } from '../integration/plugins/plugin-fixtures';

// Real plugin processes on a shared two-core machine: generous bounds, never timing assertions.
jest.setTimeout(180_000);

/** Plugins stop when the last dispatcher using them closes, not only when the container does. */
describe('closing a tool dispatcher stops the plugins only it was using', () => {
  const dataHome = mkdtempSync(join(tmpdir(), 'awf-rel-close-'));
  const fixtures = fixturePlugins({
    one: { operations: { pid: { behaviour: 'pid' } } },
    two: { operations: { pid: { behaviour: 'pid' } } },
  });
  const saved = { path: process.env.AWF_PLUGINS_PATH, xdg: process.env.XDG_DATA_HOME };
  let app: TestingModule;
  let factory: ToolRouterFactory;

  const open = (pluginTools: PluginToolSpec[]) =>
    factory.open(buildToolScope({ version: 1, intercept_builtins: false, plugin_tools: pluginTools }));
  const pidOf = async (d: Awaited<ReturnType<typeof open>>, tool: string) =>
    (await d.call(tool, {})).structuredContent!.pid as number;

  beforeAll(async () => {
    process.env.AWF_PLUGINS_PATH = fixtures.dir;
    process.env.XDG_DATA_HOME = dataHome;
    process.env.AWF_PLUGIN_HANDSHAKE_TIMEOUT_MS = '30000';
    app = await Test.createTestingModule({ imports: [CoreModule, PluginsModule] }).compile();
    await app.init();
    factory = app.get(TOOL_ROUTER_FACTORY);
  });
  afterAll(async () => {
    await app.close();
    process.env.AWF_PLUGINS_PATH = saved.path;
    process.env.XDG_DATA_HOME = saved.xdg;
    fixtures.cleanup();
    rmSync(dataHome, { recursive: true, force: true });
  });

  it('keeps a plugin another dispatcher still uses, and stops it with the last one', async () => {
    const both = await open([
      { plugin: 'one', expose: ['pid'] },
      { plugin: 'two', expose: ['pid'] },
    ]);
    const onlyOne = await open([{ plugin: 'one', expose: ['pid'] }]);
    const host = app.get(PluginHost);
    const [one, two] = [await pidOf(both, 'one_pid'), await pidOf(both, 'two_pid')];
    expect(await pidOf(onlyOne, 'one_pid')).toBe(one);

    await both.close();
    expect({ one: isAlive(one), two: isAlive(two) }).toEqual({ one: true, two: false });
    expect([host.isRunning('one'), host.isRunning('two')]).toEqual([true, false]);
    expect(await pidOf(onlyOne, 'one_pid')).toBe(one);

    await onlyOne.close();
    expect(isAlive(one)).toBe(false);
    expect(host.isRunning('one')).toBe(false);
  });

  it('stops what a dispatcher started when opening it fails', async () => {
    await expect(
      open([
        { plugin: 'one', expose: ['pid'] },
        { plugin: 'two', expose: ['nope'] },
      ]),
    ).rejects.toMatchObject({ code: 'USER.MCP_PROXY.UNKNOWN_OPERATION' });
    const host = app.get(PluginHost);
    expect([host.isRunning('one'), host.isRunning('two')]).toEqual([false, false]);
  });
});
