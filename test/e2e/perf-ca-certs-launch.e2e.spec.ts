import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { selfCommand } from '../../src/infrastructure/core/self-command';
import { leanProxyLaunch } from '../../src/infrastructure/workflow/proxy-launch';
import type { ProxyConfig } from '../../src/domain/proxy/proxy-config';
import { ECHO_EXTENSION } from '../support/cli';
import { awf, workflowProject } from './workflow-support';

jest.setTimeout(120_000);

/** Run by Bash through the proxy: whether its parent, mcp-serve, was started with NODE_EXTRA_CA_CERTS. */
const PROBE = "if tr '\\0' '\\n' < /proc/$PPID/environ | grep -q '^NODE_EXTRA_CA_CERTS='; then echo started-with-certs; else echo started-without-certs; fi";

const workflow = (expect: string) => `name: ca-certs
states:
  initial: probe
  probe:
    type: agent
    provider: script
    prompt: probe
    mcp_proxy: {enable: true}
    options:
      calls:
        - tool: Bash
          args: {command: ${JSON.stringify(PROBE)}}
          expect: ${expect}
    on_success: done
  done: {type: terminal}
`;

/**
 * NODE_EXTRA_CA_CERTS costs every Node process a parse of that file at start; `awf run` starts
 * a step's mcp-serve without it when nothing in that process can use it (ADR 100), and
 * mcp-serve hands it back to what it spawns.
 */
describe('NODE_EXTRA_CA_CERTS and the start of a step’s mcp-serve', () => {
  const certs = (dir: string): string => {
    const file = join(dir, 'extra-ca.pem');
    writeFileSync(file, `${rootCertificates[0]}\n`);
    return file;
  };

  it('starts mcp-serve without it when the project loads no extension and spans do not go over OTLP', () => {
    const p = workflowProject({ 'wf.yaml': workflow('started-without-certs') });
    try {
      const r = awf(['run', 'wf.yaml'], { cwd: p.dir, env: { ...p.env, NODE_EXTRA_CA_CERTS: certs(p.dir) } });
      expect(r.stderr).not.toContain('Ignoring extra certs');
      expect(r.status).toBe(0);
    } finally {
      p.cleanup();
    }
  });

  it('keeps it when the project loads an extension, which may call out over TLS from inside mcp-serve', () => {
    const p = workflowProject({ 'wf.yaml': workflow('started-with-certs') }, [ECHO_EXTENSION]);
    try {
      const r = awf(['run', 'wf.yaml'], { cwd: p.dir, env: { ...p.env, NODE_EXTRA_CA_CERTS: certs(p.dir) } });
      expect(r.status).toBe(0);
    } finally {
      p.cleanup();
    }
  });

  it('gives the value back to what mcp-serve runs', async () => {
    const p = workflowProject();
    try {
      const file = certs(p.dir);
      const config = join(p.dir, 'proxy.json');
      const proxy = { version: 1, intercept_builtins: true, plugin_tools: [], step: 's', root_dir: p.dir, telemetry: { exporter: 'none' as const }, limits: { env_passthrough: ['NODE_EXTRA_CA_CERTS', 'AWF_STASHED_NODE_EXTRA_CA_CERTS'] } };
      writeFileSync(config, JSON.stringify(proxy));
      const plain = selfCommand(['mcp-serve', `--config=${config}`]);
      const launch = leanProxyLaunch(plain, proxy as unknown as ProxyConfig, { NODE_EXTRA_CA_CERTS: file });
      expect(launch.command).toBe('/usr/bin/env');
      const child = spawn(launch.command, launch.args, { cwd: p.dir, env: { ...process.env, NODE_EXTRA_CA_CERTS: file }, stdio: ['pipe', 'pipe', 'ignore'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const frame = (id: number, method: string, params: object) => `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;
      child.stdin.write(frame(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } }));
      child.stdin.write(frame(2, 'tools/call', { name: 'Bash', arguments: { command: 'echo "[$NODE_EXTRA_CA_CERTS][${AWF_STASHED_NODE_EXTRA_CA_CERTS:-}]"' } }));
      await new Promise<void>((resolve) => child.stdout.on('data', () => out.includes('"id":2') && resolve()));
      child.stdin.end();
      await new Promise((resolve) => child.on('exit', resolve));
      expect(out).toContain(`[${file}][]`);
    } finally {
      p.cleanup();
    }
  });
});
