import { Inject, Injectable, Module, Optional } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PLUGIN_CATALOG, type PluginCatalog } from '../../../src/domain/ports/plugin-catalog.port';
import { CoreModule } from '../../../src/infrastructure/core/core.module';
import { PluginHost } from '../../../src/infrastructure/plugins/plugin-host.service';
import { PluginsModule } from '../../../src/infrastructure/plugins/plugins.module';
import { PluginStateStore } from '../../../src/infrastructure/plugins/plugin-state.store';
import { EXAMPLE_PLUGINS, fixturePlugins } from './plugin-fixtures';

// Real processes on a shared two-core machine: generous bounds, never timing assertions.
jest.setTimeout(180_000);

/** Stands for WorkflowModule: it asks for the optional token without importing PluginsModule. */
@Injectable()
class CatalogUser {
  constructor(@Optional() @Inject(PLUGIN_CATALOG) readonly catalog?: PluginCatalog) {}
}

@Module({ providers: [CatalogUser] })
class ConsumerModule {}

describe('PLUGIN_CATALOG as another feature module sees it', () => {
  const dataHome = mkdtempSync(join(tmpdir(), 'awf-plugins-data-'));
  const broken = fixturePlugins({ cookie: { startup: 'wrong-cookie' } });
  const saved = { path: process.env.AWF_PLUGINS_PATH, xdg: process.env.XDG_DATA_HOME };
  let app: TestingModule;

  beforeAll(async () => {
    process.env.AWF_PLUGINS_PATH = `${EXAMPLE_PLUGINS}:${broken.dir}`;
    process.env.XDG_DATA_HOME = dataHome;
    process.env.AWF_PLUGIN_HANDSHAKE_TIMEOUT_MS = '30000'; // the shared test machine is noisy
    app = await Test.createTestingModule({ imports: [CoreModule, PluginsModule, ConsumerModule] }).compile();
    await app.init();
  });
  afterAll(async () => {
    await app.close();
    Object.assign(process.env, { AWF_PLUGINS_PATH: saved.path, XDG_DATA_HOME: saved.xdg });
    broken.cleanup();
    rmSync(dataHome, { recursive: true, force: true });
  });

  it('lists installed plugins with their operations and enable state, and leaves none running', async () => {
    app.get(PluginStateStore).setEnabled('time', false);
    const catalog = app.get(CatalogUser).catalog!;
    expect(catalog).toBeDefined();
    const plugins = await catalog.list();
    expect(
      plugins.map((p) => ({ name: p.name, enabled: p.enabled, operations: p.operations.map((o) => o.name) })),
    ).toEqual([
      { name: 'cookie', enabled: true, operations: [] },
      { name: 'kv', enabled: true, operations: ['get', 'set', 'list'] },
      { name: 'time', enabled: false, operations: [] },
    ]);
    expect(plugins.find((p) => p.name === 'kv')!.operations[0]).toEqual({
      name: 'get',
      description: 'Reads the value stored under a key; fails when the key is not set.',
    });
    expect(['cookie', 'kv', 'time'].some((n) => app.get(PluginHost).isRunning(n))).toBe(false);
  });
});
