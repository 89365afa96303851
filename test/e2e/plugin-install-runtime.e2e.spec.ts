import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REPO_ROOT, runAwf, scratchDir } from '../support/cli';

jest.setTimeout(180_000);

const FIXTURE_PLUGIN = resolve(REPO_ROOT, 'test/fixtures/plugins/fixture-plugin.js');

/** package.json of a package in node_modules, with the dependencies it names. */
const pkg = (name: string, dependencies: Record<string, string> = {}) =>
  JSON.stringify({ name, version: '1.0.0', dependencies });

describe('awf plugin install <folder>', () => {
  it('copies what the plugin runs with and leaves its devDependencies out', () => {
    const src = scratchDir({
      'plugin.yaml': `name: lean\nversion: 1.0.0\ncapabilities: [operations]\ncommand: [node, ${JSON.stringify(FIXTURE_PLUGIN)}]\n`,
      'fixture.json': JSON.stringify({ name: 'lean', operations: { echo: { behaviour: 'echo' } } }),
      'package.json': JSON.stringify({
        name: 'awf-plugin-lean',
        version: '1.0.0',
        dependencies: { 'run-a': '1.0.0', '@scope/run-s': '1.0.0', linked: 'file:vendor/linked' },
        optionalDependencies: { 'run-opt': '1.0.0' },
        devDependencies: { 'dev-tool': '1.0.0', '@scope/dev-s': '1.0.0' },
      }),
      'vendor/linked/package.json': pkg('linked', { 'run-c': '1.0.0' }),
      'node_modules/run-a/package.json': pkg('run-a', { 'run-b': '1.0.0', 'nested-n': '2.0.0' }),
      'node_modules/run-a/node_modules/nested-n/package.json': pkg('nested-n'),
      'node_modules/nested-n/package.json': pkg('nested-n', { 'dev-only-dep': '1.0.0' }),
      'node_modules/run-b/package.json': pkg('run-b'),
      'node_modules/run-c/package.json': pkg('run-c'),
      'node_modules/run-opt/package.json': pkg('run-opt'),
      'node_modules/@scope/run-s/package.json': pkg('@scope/run-s'),
      'node_modules/@scope/dev-s/package.json': pkg('@scope/dev-s'),
      'node_modules/dev-tool/package.json': pkg('dev-tool', { 'dev-only-dep': '1.0.0' }),
      'node_modules/dev-tool/big.bin': 'x'.repeat(100_000),
      'node_modules/dev-only-dep/package.json': pkg('dev-only-dep'),
      'node_modules/.package-lock.json': '{}',
    });
    const project = scratchDir();
    try {
      mkdirSync(join(src.dir, 'node_modules/.bin'));
      symlinkSync('../dev-tool/cli.js', join(src.dir, 'node_modules/.bin/dev-tool'));
      symlinkSync('../vendor/linked', join(src.dir, 'node_modules/linked'));
      const env = {
        XDG_DATA_HOME: join(project.dir, 'xdg'),
        AWF_PLUGINS_PATH: '',
        AWF_PLUGIN_HANDSHAKE_TIMEOUT_MS: '60000',
      };
      const add = runAwf(['plugin', 'install', src.dir], { cwd: project.dir, env, timeout: 90_000 });
      expect(add.stderr).toBe('');
      expect(add.stdout).toContain('plugin lean 1.0.0 installed');
      const installed = join(project.dir, '.awf/plugins/lean');
      const has = (path: string) => existsSync(join(installed, path));
      for (const kept of [
        'plugin.yaml',
        'package.json',
        'vendor/linked/package.json',
        'node_modules/linked/package.json',
        'node_modules/run-a/package.json',
        'node_modules/run-a/node_modules/nested-n/package.json',
        'node_modules/run-b/package.json',
        'node_modules/run-c/package.json',
        'node_modules/run-opt/package.json',
        'node_modules/@scope/run-s/package.json',
      ])
        expect([kept, has(kept)]).toEqual([kept, true]);
      for (const gone of [
        'node_modules/dev-tool',
        'node_modules/@scope/dev-s',
        'node_modules/dev-only-dep',
        'node_modules/nested-n',
        'node_modules/.bin',
        'node_modules/.package-lock.json',
      ])
        expect([gone, has(gone)]).toEqual([gone, false]);
    } finally {
      src.cleanup();
      project.cleanup();
    }
  });
});
