import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PluginDiscovery } from '../../../src/infrastructure/plugins/plugin-discovery.service';
import { PluginHost } from '../../../src/infrastructure/plugins/plugin-host.service';
import { PluginInstaller } from '../../../src/infrastructure/plugins/plugin-installer.service';
import { readPlugin } from '../../../src/infrastructure/plugins/plugin-manifest';
import { mapExecuteResult, mapOperationTool } from '../../../src/infrastructure/plugins/plugin-schema.mapper';
import { PluginStateStore } from '../../../src/infrastructure/plugins/plugin-state.store';
import { isAlive } from './plugin-fixtures';
import { memoryLogger } from './plugin-test-logger';

const GOPATH = '/usr/share/gocode';
const SOURCE = resolve(__dirname, '../../fixtures/plugins/go-greet/main.go');

/** Debian's golang-go, golang-github-hashicorp-go-plugin-dev and golang-google-grpc-dev, or why not. */
function missingToolchain(): string | undefined {
  if (spawnSync('go', ['version']).status !== 0) return 'no Go toolchain (apt-get install golang-go)';
  for (const pkg of ['github.com/hashicorp/go-plugin', 'google.golang.org/grpc']) {
    if (!existsSync(join(GOPATH, 'src', pkg)))
      return `${pkg} is not in ${GOPATH} (apt-get install golang-github-hashicorp-go-plugin-dev golang-google-grpc-dev)`;
  }
  return undefined;
}

const missing = missingToolchain();
const describeGo = missing ? describe.skip : describe;

describeGo(`a Go plugin built on hashicorp/go-plugin${missing ? ` — SKIPPED: ${missing}` : ''}`, () => {
  let dir: string;
  let pluginDir: string;
  const savedXdg = process.env.XDG_DATA_HOME;
  const host = new PluginHost(memoryLogger(), new PluginStateStore());

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'awf-go-plugin-'));
    pluginDir = join(dir, 'gogreet');
    process.env.XDG_DATA_HOME = join(dir, 'xdg');
    process.env.AWF_PLUGIN_HANDSHAKE_TIMEOUT_MS = '30000'; // the shared test machine is noisy
    mkdirSync(pluginDir);
    writeFileSync(join(pluginDir, 'plugin.yaml'), 'name: gogreet\nversion: 0.1.0\ncapabilities: [operations]\n');
    execFileSync('go', ['build', '-o', join(pluginDir, 'awf-plugin-gogreet'), SOURCE], {
      env: { ...process.env, GO111MODULE: 'off', GOPATH, GOFLAGS: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 240_000,
    });
  }, 250_000);
  afterAll(async () => {
    await host.stopAll();
    process.env.XDG_DATA_HOME = savedXdg;
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads over AutoMTLS, maps its operation to a tool, executes it and stops cleanly', async () => {
    const running = await host.acquire(readPlugin(pluginDir));
    expect(running.endpoint.certDer).toBeDefined();
    const tool = mapOperationTool('gogreet', running.operations[0]);
    expect(tool).toMatchObject({
      name: 'gogreet_hello',
      description: 'Greets someone, from Go. Returns a JSON object with fields: greeting (string).',
      inputSchema: {
        type: 'object',
        properties: { name: { type: 'string', description: 'Who to greet.' } },
        required: ['name'],
      },
    });
    const result = mapExecuteResult('gogreet', 'hello', await running.connection.execute('hello', { name: 'Ada' }));
    expect(result.structuredContent).toEqual({ greeting: 'hello Ada from go' });
    const pid = running.process.pid!;
    await host.stopAll();
    expect(isAlive(pid)).toBe(false);
    expect(await running.process.exited).toEqual({ code: 0, signal: null });
  });

  it('installs from its folder as a whole copy (it has no package.json) that still loads', async () => {
    const project = join(dir, 'project');
    mkdirSync(project);
    const installer = new PluginInstaller(new PluginDiscovery(), host, new PluginStateStore());
    const env = process.env.AWF_PLUGINS_PATH;
    process.env.AWF_PLUGINS_PATH = '';
    try {
      const result = await installer.install(pluginDir, { cwd: project });
      expect(result).toMatchObject({ name: 'gogreet', version: '0.1.0', how: 'copied', operations: ['hello'] });
      expect(readdirSync(result.dir).sort()).toEqual(['awf-plugin-gogreet', 'plugin.yaml', 'state.json']);
      const running = await host.acquire(readPlugin(result.dir));
      expect(running.operations.map((o) => o.name)).toEqual(['hello']);
    } finally {
      if (env === undefined) delete process.env.AWF_PLUGINS_PATH;
      else process.env.AWF_PLUGINS_PATH = env;
      await host.stopAll();
    }
  });
});
