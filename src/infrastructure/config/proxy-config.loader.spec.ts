import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProxyConfig, parseProxyConfig } from './proxy-config.loader';

const valid = { version: 1, intercept_builtins: true, plugin_tools: [{ plugin: 'kv', expose: ['get'] }] };

describe('proxy config validation', () => {
  it('accepts a complete config', () => {
    const full = {
      ...valid,
      root_dir: '/work',
      workflow: 'wf',
      step: 's',
      run_id: 'r',
      owner_pid: 42,
      events_path: '/tmp/e.jsonl',
      telemetry: {
        exporter: 'file',
        file: '/tmp/spans.jsonl',
        traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      },
      limits: { read_max_bytes: 10, env_passthrough: ['GOPATH'] },
    };
    expect(parseProxyConfig(full)).toEqual(full);
  });

  it('names every unknown key, nested ones with their path', () => {
    const raw = {
      ...valid,
      colour: 'red',
      plugin_tools: [{ plugin: 'kv', expose: [], extra: 1 }],
      limits: { speed: 1 },
      telemetry: { exporter: 'none', x: 1 },
    };
    expect(() => parseProxyConfig(raw)).toThrow(
      expect.objectContaining({
        code: 'USER.MCP_PROXY.UNKNOWN_KEY',
        details: expect.objectContaining({ keys: ['colour', 'plugin_tools[0].extra', 'telemetry.x', 'limits.speed'] }),
      }),
    );
  });

  it.each([
    [{ ...valid, intercept_builtins: 'yes' }, 'intercept_builtins'],
    [{ ...valid, version: 2 }, 'version'],
    [{ ...valid, plugin_tools: [{ plugin: '', expose: [] }] }, 'plugin_tools.0.plugin'],
    [{ ...valid, root_dir: 'relative/dir' }, 'root_dir must be an absolute path'],
    [{ ...valid, limits: { read_max_bytes: -1 } }, 'limits.read_max_bytes'],
    [{ ...valid, telemetry: { exporter: 'jaeger' } }, 'telemetry.exporter'],
    [{ intercept_builtins: true, plugin_tools: [] }, 'version'],
    [{ ...valid, plugin_tools: ['kv'] }, 'plugin_tools.0 must be an object'],
    [{ ...valid, plugin_tools: [{ plugin: 'kv', expose: ['get', 3] }] }, 'plugin_tools.0.expose.1'],
    [{ ...valid, owner_pid: 0 }, 'owner_pid'],
    [{ ...valid, owner_pid: 1.5 }, 'owner_pid'],
    [{ ...valid, events_path: 'rel.jsonl' }, 'events_path must be an absolute path'],
    [{ ...valid, limits: { env_passthrough: ['OK', 'NOT-OK'] } }, 'limits.env_passthrough.1'],
    [{ ...valid, telemetry: { exporter: 'file', traceparent: 'nope' } }, 'telemetry.traceparent'],
    [{ ...valid, limits: 'fast' }, 'limits must be an object'],
  ])('refuses a wrong type or value (%#) and says which field', (raw, field) => {
    expect(() => parseProxyConfig(raw)).toThrow(
      expect.objectContaining({ code: 'USER.MCP_PROXY.INVALID_CONFIG', message: expect.stringContaining(field) }),
    );
  });

  it('names every wrong field at once, and lets optional fields be null as before', () => {
    expect(parseProxyConfig({ ...valid, step: null, limits: null })).toMatchObject({ version: 1 });
    expect(() =>
      parseProxyConfig({ ...valid, version: 2, limits: { read_max_bytes: 0, glob_max_results: 'x' } }),
    ).toThrow(
      expect.objectContaining({
        details: expect.objectContaining({
          problems: [
            expect.stringContaining('version'),
            expect.stringMatching(/limits\.read_max_bytes.*; limits\.glob_max_results/),
          ],
        }),
      }),
    );
  });

  it('refuses what is not an object', () => {
    expect(() => parseProxyConfig([1, 2])).toThrow(expect.objectContaining({ code: 'USER.MCP_PROXY.INVALID_CONFIG' }));
  });

  describe('from a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'awf-cfg-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('reports a missing file with its path', () => {
      expect(() => loadProxyConfig(join(dir, 'nope.json'))).toThrow(
        expect.objectContaining({
          code: 'USER.MCP_PROXY.CONFIG_NOT_FOUND',
          message: expect.stringContaining('nope.json'),
        }),
      );
    });

    it('reports bad JSON', () => {
      writeFileSync(join(dir, 'bad.json'), '{invalid');
      expect(() => loadProxyConfig(join(dir, 'bad.json'))).toThrow(
        expect.objectContaining({ code: 'USER.MCP_PROXY.INVALID_CONFIG' }),
      );
    });
  });
});
