import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProxyConfig } from '../../domain/proxy/proxy-config';
import { leanProxyLaunch } from './proxy-launch';

const PLAIN = { command: '/usr/bin/node', args: ['--snapshot-blob', 'awf-mcp.blob', 'dist/main.js', 'mcp-serve', '--config=/tmp/c.json'] };

describe('leanProxyLaunch', () => {
  const root = mkdtempSync(join(tmpdir(), 'awf-launch-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const config = (over: Partial<ProxyConfig> = {}): ProxyConfig =>
    ({ version: 1, intercept_builtins: true, plugin_tools: [], root_dir: root, telemetry: { exporter: 'file', file: 'spans.jsonl' }, ...over }) as ProxyConfig;

  it('starts mcp-serve through env without NODE_EXTRA_CA_CERTS, parking the value for it to restore', () => {
    expect(leanProxyLaunch(PLAIN, config(), { NODE_EXTRA_CA_CERTS: '/etc/corp-ca.pem' })).toEqual({
      command: '/usr/bin/env',
      args: ['-u', 'NODE_EXTRA_CA_CERTS', 'AWF_STASHED_NODE_EXTRA_CA_CERTS=/etc/corp-ca.pem', ...[PLAIN.command, ...PLAIN.args]],
    });
  });

  it('leaves the launch alone when the variable is not set', () => {
    expect(leanProxyLaunch(PLAIN, config(), {})).toBe(PLAIN);
    expect(leanProxyLaunch(PLAIN, config(), { NODE_EXTRA_CA_CERTS: '' })).toBe(PLAIN);
  });

  it('keeps it when spans go over OTLP, or when mcp-serve would pick its exporter from OTEL_* itself', () => {
    const env = { NODE_EXTRA_CA_CERTS: '/etc/corp-ca.pem' };
    expect(leanProxyLaunch(PLAIN, config({ telemetry: { exporter: 'otlp', endpoint: 'https://collector.internal:4318' } }), env)).toBe(PLAIN);
    expect(leanProxyLaunch(PLAIN, config({ telemetry: undefined }), env)).toBe(PLAIN);
  });

  it('keeps it when the project mcp-serve starts in loads extensions, or has a config it will refuse', () => {
    const env = { NODE_EXTRA_CA_CERTS: '/etc/corp-ca.pem' };
    const withExtension = join(root, 'ext');
    mkdirSync(join(withExtension, '.awf'), { recursive: true });
    writeFileSync(join(withExtension, '.awf', 'config.yaml'), 'extensions:\n  - ./my-tools.module.js\n');
    expect(leanProxyLaunch(PLAIN, config({ root_dir: withExtension }), env)).toBe(PLAIN);
    const broken = join(root, 'broken');
    mkdirSync(join(broken, '.awf'), { recursive: true });
    writeFileSync(join(broken, '.awf', 'config.yaml'), 'extensions: [unclosed\n');
    expect(leanProxyLaunch(PLAIN, config({ root_dir: broken }), env)).toBe(PLAIN);
  });
});
