import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { awfPackageRoot, PluginScaffolder } from './plugin-scaffold.service';

describe('PluginScaffolder (awf plugin init)', () => {
  let cwd: string;
  beforeEach(() => (cwd = mkdtempSync(join(tmpdir(), 'awf-init-'))));
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));

  it('writes a project named after the plugin that depends on this awf by file: path', () => {
    const result = new PluginScaffolder().scaffold('awf-plugin-weather', { cwd });
    expect(result.name).toBe('weather');
    expect(result.dir).toBe(join(cwd, 'weather'));
    expect(result.files).toEqual(
      expect.arrayContaining([
        'package.json',
        'plugin.yaml',
        'src/definition.ts',
        'src/plugin.ts',
        'src/definition.test.ts',
      ]),
    );
    const pkg = JSON.parse(readFileSync(join(result.dir, 'package.json'), 'utf8'));
    expect(pkg.dependencies.awf).toBe(`file:${awfPackageRoot()}`);
    expect(JSON.parse(readFileSync(join(awfPackageRoot(), 'package.json'), 'utf8')).name).toBe('awf');
    expect(parse(readFileSync(join(result.dir, 'plugin.yaml'), 'utf8'))).toMatchObject({
      name: 'weather',
      command: 'node dist/plugin.js',
      capabilities: ['operations'],
    });
    expect(readFileSync(join(result.dir, 'src/definition.ts'), 'utf8')).toContain("name: 'weather'");
  });

  it('refuses bad names and non-empty targets unless forced', () => {
    expect(() => new PluginScaffolder().scaffold('Weather', { cwd })).toThrow(
      expect.objectContaining({ code: 'USER.PLUGIN.INVALID_NAME' }),
    );
    expect(() => new PluginScaffolder().scaffold('a_b', { cwd })).toThrow(
      expect.objectContaining({ code: 'USER.PLUGIN.INVALID_NAME' }),
    );
    writeFileSync(join(cwd, 'keep.txt'), 'mine');
    expect(() => new PluginScaffolder().scaffold('jira', { cwd, output: '.' })).toThrow(
      expect.objectContaining({ code: 'USER.PLUGIN.TARGET_EXISTS' }),
    );
    expect(
      new PluginScaffolder().scaffold('jira', { cwd, output: '.', force: true, awfDependency: '^0.1.0' }).dir,
    ).toBe(cwd);
    expect(readFileSync(join(cwd, 'keep.txt'), 'utf8')).toBe('mine');
    expect(JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')).dependencies.awf).toBe('^0.1.0');
  });
});
