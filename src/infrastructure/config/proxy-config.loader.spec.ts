import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProxyConfig, parseProxyConfig } from './proxy-config.loader';

const valid = { version: 1, intercept_builtins: true, plugin_tools: [{ plugin: 'kv', expose: ['get'] }] };

describe('proxy config validation', () => {
  it('accepts a complete config', () => {
    const full = {
      ...valid, root_dir: '/work', workflow: 'wf', step: 's', run_id: 'r', owner_pid: 42, events_path: '/tmp/e.jsonl',
      telemetry: { exporter: 'file', file: '/tmp/spans.jsonl', traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
      limits: { read_max_bytes: 10, env_passthrough: ['GOPATH'] },
    };
    expect(parseProxyConfig(full)).toEqual(full);
  });

  it('names every unknown key, nested ones with their path', () => {
    const raw = { ...valid, colour: 'red', plugin_tools: [{ plugin: 'kv', expose: [], extra: 1 }], limits: { speed: 1 }, telemetry: { exporter: 'none', x: 1 } };
    expect(() => parseProxyConfig(raw)).toThrow(expect.objectContaining({
      code: 'USER.MCP_PROXY.UNKNOWN_KEY',
      details: expect.objectContaining({ keys: ['colour', 'plugin_tools[0].extra', 'telemetry.x', 'limits.speed'] }),
    }));
  });

  it.each([
    [{ ...valid, intercept_builtins: 'yes' }, 'intercept_builtins'],
    [{ ...valid, version: 2 }, 'version'],
    [{ ...valid, plugin_tools: [{ plugin: '', expose: [] }] }, 'plugin_tools.0.plugin'],
    [{ ...valid, root_dir: 'relative/dir' }, 'root_dir must be an absolute path'],
    [{ ...valid, limits: { read_max_bytes: -1 } }, 'limits.read_max_bytes'],
    [{ ...valid, telemetry: { exporter: 'jaeger' } }, 'telemetry.exporter'],
    [{ intercept_builtins: true, plugin_tools: [] }, 'version'],
  ])('refuses a wrong type or value (%#) and says which field', (raw, field) => {
    expect(() => parseProxyConfig(raw)).toThrow(expect.objectContaining({ code: 'USER.MCP_PROXY.INVALID_CONFIG', message: expect.stringContaining(field) }));
  });

  it('refuses what is not an object', () => {
    expect(() => parseProxyConfig([1, 2])).toThrow(expect.objectContaining({ code: 'USER.MCP_PROXY.INVALID_CONFIG' }));
  });

  describe('from a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'awf-cfg-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('reports a missing file with its path', () => {
      expect(() => loadProxyConfig(join(dir, 'nope.json'))).toThrow(expect.objectContaining({ code: 'USER.MCP_PROXY.CONFIG_NOT_FOUND', message: expect.stringContaining('nope.json') }));
    });

    it('reports bad JSON', () => {
      writeFileSync(join(dir, 'bad.json'), '{invalid');
      expect(() => loadProxyConfig(join(dir, 'bad.json'))).toThrow(expect.objectContaining({ code: 'USER.MCP_PROXY.INVALID_CONFIG' }));
    });
  });
});
