import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PluginDiscovery } from './plugin-discovery.service';
import { pluginSearchDirs } from './plugin-paths';
import { PluginStateStore } from './plugin-state.store';

const manifest = (name: string, extra = '') => `name: ${name}\nversion: 1.2.3\ncapabilities: [operations]\n${extra}`;

describe('plugin discovery, manifests and enable state', () => {
  let root: string;
  const saved = { ...process.env };

  const plugin = (dir: string, folder: string, yaml: string, executable?: string) => {
    mkdirSync(join(root, dir, folder), { recursive: true });
    writeFileSync(join(root, dir, folder, 'plugin.yaml'), yaml);
    if (executable) {
      writeFileSync(join(root, dir, folder, executable), '#!/bin/sh\n');
      chmodSync(join(root, dir, folder, executable), 0o755);
    }
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'awf-discovery-'));
    process.env = { ...saved, XDG_DATA_HOME: join(root, 'xdg'), HOME: root };
    delete process.env.AWF_PLUGINS_PATH;
  });
  afterEach(() => {
    process.env = saved;
    rmSync(root, { recursive: true, force: true });
  });

  it('searches ./.awf/plugins before $XDG_DATA_HOME/awf/plugins, and only AWF_PLUGINS_PATH when it is set', () => {
    mkdirSync(join(root, 'project/.awf/plugins'), { recursive: true });
    mkdirSync(join(root, 'xdg/awf/plugins'), { recursive: true });
    expect(pluginSearchDirs(process.env, join(root, 'project'))).toEqual([
      join(root, 'project/.awf/plugins'),
      join(root, 'xdg/awf/plugins'),
    ]);
    expect(
      pluginSearchDirs({ ...process.env, AWF_PLUGINS_PATH: join(root, 'xdg/awf/plugins') }, join(root, 'project')),
    ).toEqual([join(root, 'xdg/awf/plugins')]);
    expect(pluginSearchDirs({ ...process.env, AWF_PLUGINS_PATH: join(root, 'missing') })).toEqual([]);
  });

  it('finds executables and command: plugins, lets the first directory win, and lists broken ones with their problem', () => {
    plugin('a', 'time', manifest('time'), 'awf-plugin-time');
    plugin('a', 'awf-plugin-weather', manifest('weather'), 'awf-plugin-weather');
    plugin('a', 'kv', manifest('kv', 'command: node dist/plugin.js --fast\n'));
    plugin('a', 'nobin', manifest('nobin'));
    plugin('a', 'badname', manifest('9lives'));
    plugin('a', 'notyaml', '{ unclosed');
    plugin('b', 'time', manifest('time', 'description: shadowed\n'), 'awf-plugin-time');
    mkdirSync(join(root, 'a', 'no-manifest'));
    process.env.AWF_PLUGINS_PATH = `${join(root, 'a')}:${join(root, 'b')}`;
    const found = new PluginDiscovery().discover();
    expect(found.map((p) => [p.name, p.problem ?? 'ok'])).toEqual([
      ['9lives', expect.stringContaining('must start with a letter')],
      ['kv', 'ok'],
      ['nobin', expect.stringContaining('no executable awf-plugin-nobin')],
      ['notyaml', expect.stringContaining('plugin.yaml cannot be read')],
      ['time', 'ok'],
      ['weather', 'ok'],
    ]);
    const byName = Object.fromEntries(found.map((p) => [p.name, p]));
    expect(byName.kv.launch).toEqual({
      command: process.execPath,
      args: ['dist/plugin.js', '--fast'],
      cwd: join(root, 'a', 'kv'),
    });
    expect(byName.time).toMatchObject({
      version: '1.2.3',
      description: '',
      launch: { command: join(root, 'a', 'time', 'awf-plugin-time') },
    });
    expect(byName.weather.launch?.command).toBe(join(root, 'a', 'awf-plugin-weather', 'awf-plugin-weather'));
  });

  it('follows a symbolic link to a plugin folder (ln -s ~/weather .awf/plugins/weather), and skips dangling ones', () => {
    plugin('home', 'weather', manifest('weather', 'command: node dist/plugin.js\n'));
    mkdirSync(join(root, 'project/.awf/plugins'), { recursive: true });
    symlinkSync(join(root, 'home/weather'), join(root, 'project/.awf/plugins/weather'));
    symlinkSync(join(root, 'home/gone'), join(root, 'project/.awf/plugins/gone'));
    writeFileSync(join(root, 'home/file.yaml'), manifest('file'));
    symlinkSync(join(root, 'home/file.yaml'), join(root, 'project/.awf/plugins/file'));
    const found = new PluginDiscovery().discover(join(root, 'project'));
    expect(found.map((p) => [p.name, p.dir, p.problem ?? 'ok'])).toEqual([
      ['weather', join(root, 'project/.awf/plugins/weather'), 'ok'],
    ]);
    expect(found[0].launch?.cwd).toBe(join(root, 'project/.awf/plugins/weather'));
  });

  it('keeps enable state in plugins.json: no entry means enabled, other fields survive', () => {
    const store = new PluginStateStore();
    expect(store.file()).toBe(join(root, 'xdg/awf/plugins/plugins.json'));
    expect(store.isEnabled('kv')).toBe(true);
    mkdirSync(join(root, 'xdg/awf/plugins'), { recursive: true });
    writeFileSync(
      store.file(),
      JSON.stringify({ kv: { enabled: true, config: { file: '/tmp/kv.json' }, checksum: 'abc' } }),
    );
    store.setEnabled('kv', false);
    expect(store.isEnabled('kv')).toBe(false);
    expect(store.config('kv')).toEqual({ file: '/tmp/kv.json' });
    const saved = JSON.parse(readFileSync(store.file(), 'utf8'));
    expect(saved.kv).toMatchObject({ enabled: false, checksum: 'abc', disabled_at: expect.any(String) });
    store.setEnabled('kv', true);
    expect(JSON.parse(readFileSync(store.file(), 'utf8')).kv).toEqual({
      enabled: true,
      config: { file: '/tmp/kv.json' },
      checksum: 'abc',
    });
  });

  it('reports a corrupt plugins.json as a config error naming the file', () => {
    mkdirSync(join(root, 'xdg/awf/plugins'), { recursive: true });
    writeFileSync(join(root, 'xdg/awf/plugins/plugins.json'), '{ nope');
    expect(() => new PluginStateStore().isEnabled('kv')).toThrow(
      expect.objectContaining({ code: 'USER.CONFIG.INVALID' }),
    );
  });
});
