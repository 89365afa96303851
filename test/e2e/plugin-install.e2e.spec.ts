import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INSTALLED_ENV, type InstalledPackage } from '../support/installed-package';
import { connectMcpServe } from '../support/mcp-client';

// Real processes and a real `npm install` on a shared two-core machine: generous bounds, no timing assertions.
jest.setTimeout(600_000);

const installed = (): InstalledPackage | undefined => {
  const file = process.env[INSTALLED_ENV];
  return file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as InstalledPackage) : undefined;
};
const pkg = installed();
const describeInstalled = pkg && !pkg.error ? describe : describe.skip;

/**
 * Issue 19 item 5 and issue 16's `plugin install/remove`: a plugin made by `awf plugin init` of
 * the package `npm pack` made (installed into a scratch project by jest's globalSetup), built
 * with a real `npm install`, then moved, installed as a copy, a link and a tarball, listed and
 * served over MCP, and removed.
 */
describeInstalled('a plugin from the packed awf, moved, installed, listed, served and removed', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'awf-plugin-install-'));
  const project = join(scratch, 'project');
  const env = { XDG_DATA_HOME: join(scratch, 'xdg'), AWF_PLUGINS_PATH: '', AWF_PLUGIN_HANDSHAKE_TIMEOUT_MS: '60000' };
  const packedMain = join(pkg?.packageDir ?? '', 'dist/main.js');
  /** awf as `npx awf` runs it in the scratch project: the installed package's CLI. */
  const awf = (args: string[], cwd = project) =>
    spawnSync(process.execPath, [packedMain, ...args], {
      cwd,
      env: { ...process.env, AWF_LOG_LEVEL: 'warn', ...env },
      encoding: 'utf8',
      timeout: 240_000,
    });
  const npm = (args: string[], cwd: string) =>
    spawnSync('npm', [...args, '--no-audit', '--no-fund'], {
      cwd,
      encoding: 'utf8',
      timeout: 400_000,
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
  beforeAll(() => mkdirSync(project, { recursive: true }));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('scaffolds a plugin whose SDK is a copy inside it; npm install and npm test pass', () => {
    const init = awf(['plugin', 'init', 'weather'], scratch);
    expect(init.status).toBe(0);
    expect(init.stdout).toContain('vendor/awf/dist/sdk/');
    const dir = join(scratch, 'weather');
    const install = npm(['install', '--prefer-offline'], dir);
    expect(install.status).toBe(0);
    expect(lstatSync(join(dir, 'node_modules/awf')).isSymbolicLink()).toBe(true);
    const test = npm(['test'], dir);
    expect(test.stdout + test.stderr).toMatch(/# pass 2/);
    // Moved after its install: the link npm made points inside the project, so it still resolves.
    renameSync(dir, join(scratch, 'moved'));
  });

  it('installs the moved folder as a checked copy, lists it, serves weather_greet, and removes it', async () => {
    const add = awf(['plugin', 'install', join(scratch, 'moved')]);
    expect(add.stderr).toBe('');
    expect(add.status).toBe(0);
    expect(add.stdout).toBe(
      `plugin weather 0.1.0 installed in ${join(project, '.awf/plugins/weather')} (copied from ${join(scratch, 'moved')})\n` +
        'operations: greet\n',
    );
    expect(lstatSync(join(project, '.awf/plugins/weather')).isDirectory()).toBe(true);
    // What it runs with, not what built it: gRPC and the SDK are there, TypeScript is not.
    expect(existsSync(join(project, '.awf/plugins/weather/node_modules/@grpc/grpc-js/package.json'))).toBe(true);
    expect(existsSync(join(project, '.awf/plugins/weather/node_modules/awf/package.json'))).toBe(true);
    expect(existsSync(join(project, '.awf/plugins/weather/node_modules/typescript'))).toBe(false);
    expect(awf(['plugin', 'list']).stdout).toBe(
      'NAME     VERSION  STATUS   OPERATIONS\nweather  0.1.0    enabled  greet\n',
    );
    expect(awf(['plugin', 'list', '--operations']).stdout).toBe(
      'PLUGIN   OPERATION  TOOL           DESCRIPTION\nweather  greet      weather_greet  Greets someone by name.\n',
    );
    expect(awf(['plugin', 'list', '--details']).stdout).toContain(
      `  folder:      ${join(project, '.awf/plugins/weather')}\n  operations:\n    weather_greet  Greets someone by name.\n`,
    );
    const session = await connectMcpServe(
      scratch,
      { intercept_builtins: false, project_dir: project, plugin_tools: [{ plugin: 'weather', expose: ['greet'] }] },
      { env, cwd: scratch },
    );
    try {
      expect(await session.client.callTool({ name: 'weather_greet', arguments: { name: 'Ada' } })).toMatchObject({
        structuredContent: { greeting: 'Hello, Ada!' },
      });
    } finally {
      await session.close();
    }
    const again = awf(['plugin', 'install', join(scratch, 'moved')]);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(`[USER.PLUGIN.TARGET_EXISTS] plugin weather is already installed in`);
    const state = JSON.parse(readFileSync(join(scratch, 'xdg/awf/plugins/plugins.json'), 'utf8'));
    expect(state.weather.source_data).toMatchObject({ repository: join(scratch, 'moved'), version: '0.1.0' });
    const rm = awf(['plugin', 'remove', 'weather']);
    expect(rm.stdout).toBe(`plugin weather removed (${join(project, '.awf/plugins/weather')})\n`);
    expect(existsSync(join(project, '.awf/plugins/weather'))).toBe(false);
    expect(awf(['plugin', 'list']).stdout).toMatch(/^No plugins installed/);
  });

  it('links a folder with --link; remove takes the link away and leaves the folder', () => {
    expect(awf(['plugin', 'install', '--link', join(scratch, 'moved')]).status).toBe(0);
    expect(lstatSync(join(project, '.awf/plugins/weather')).isSymbolicLink()).toBe(true);
    expect(awf(['plugin', 'list']).stdout).toContain('weather  0.1.0    enabled  greet');
    expect(awf(['plugin', 'remove', 'weather']).stdout).toContain(`a link; ${join(scratch, 'moved')} is untouched`);
    expect(existsSync(join(scratch, 'moved/dist/plugin.js'))).toBe(true);
  });

  it('installs the tarball npm pack makes of it (its dependencies bundled) into another project', () => {
    const packed = npm(['pack'], join(scratch, 'moved'));
    expect(packed.status).toBe(0);
    const other = join(scratch, 'other');
    mkdirSync(join(other, '.awf/plugins'), { recursive: true });
    const add = awf(['plugin', 'install', join(scratch, 'moved/awf-plugin-weather-0.1.0.tgz')], other);
    expect(add.status).toBe(0);
    expect(add.stdout).toContain(`installed in ${join(other, '.awf/plugins/weather')} (unpacked from`);
    expect(awf(['plugin', 'list'], other).stdout).toContain('weather  0.1.0    enabled  greet');
    expect(readFileSync(join(other, '.awf/plugins/weather/node_modules/awf/package.json'), 'utf8')).toContain(
      'copied here by `awf plugin init`',
    );
  });

  it('refuses a plugin that does not start, with its reason, and installs nothing', () => {
    const broken = join(scratch, 'broken');
    mkdirSync(broken);
    writeFileSync(
      join(broken, 'plugin.yaml'),
      'name: broken\nversion: 0.1.0\ncapabilities: [operations]\ncommand: node plugin.js\n',
    );
    writeFileSync(join(broken, 'plugin.js'), "require('awf/plugin-sdk');\n");
    const add = awf(['plugin', 'install', broken]);
    expect(add.status).toBe(3);
    // awf's own warning (a pino line, this is --log-level warn) may come first; then the error.
    expect(add.stderr.split('\n').find((l) => l.startsWith('[EXECUTION.'))).toBe(
      "[EXECUTION.PLUGIN.HANDSHAKE_FAILED] plugin broken was not installed: it does not start: plugin broken exited with code 1 before its handshake: Error: Cannot find module 'awf/plugin-sdk'",
    );
    expect(existsSync(join(project, '.awf/plugins/broken'))).toBe(false);
    expect(awf(['plugin', 'list']).stdout).toMatch(/^No plugins installed/);
    const notAPlugin = awf(['plugin', 'install', scratch + '/nowhere']);
    expect(notAPlugin.status).toBe(1);
    expect(notAPlugin.stderr).toContain('[USER.PLUGIN.INVALID_PACKAGE]');
  });
});
