import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { AwfError } from '../../../domain/errors/awf-error';
import type { ToolScope } from '../../../domain/ports/tool-scope';
import { RealToolScopeResolver } from '../../../infrastructure/config/tool-scope.resolver';
import { PrivateTempDirs } from '../../../infrastructure/core/private-temp-dir';
import { ToolProxyService } from './tool-proxy.service';

describe('ToolProxyService', () => {
  let tmp: string;
  let root: string;
  const opened: ToolScope[] = [];
  const closed: number[] = [];
  const factory = {
    open: jest.fn(
      async (scope: ToolScope) => (
        opened.push(scope),
        { list: () => [], call: jest.fn(), close: async () => void closed.push(1) }
      ),
    ),
  };
  const settings = { enable: true, interceptBuiltins: true, pluginTools: [{ plugin: 'k8s', expose: ['get'] }] };
  const request = () => ({
    workflow: 'wf',
    step: 'review',
    runId: 'r1',
    rootDir: root,
    settings,
    eventsPath: join(root, 'review.events.jsonl'),
  });

  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'awf-proxy-spec-'));
    root = mkdtempSync(join(tmpdir(), 'awf-proxy-root-'));
    opened.length = 0;
    closed.length = 0;
  });
  afterEach(() => {
    rmSync(tmp, { recursive: true, force: true });
    rmSync(root, { recursive: true, force: true });
  });

  it('writes the step config 0600 in a private 0700 dir and hands out the mcp-serve command', async () => {
    const proxies = new ToolProxyService(factory, {
      launch: (file) => ({
        command: '/usr/bin/node',
        args: ['/opt/awf/dist/main.js', 'mcp-serve', `--config=${file}`],
      }),
      dirs: new PrivateTempDirs(tmp),
      scopes: new RealToolScopeResolver(),
      projectDir: '/home/ada/project',
    });
    const session = await proxies.start(request());
    const file = session.injection.configPath;
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
    expect(readdirSync(dirname(file)).sort()).toEqual(['owner.json', file.split('/').pop()].sort());
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      version: 1,
      intercept_builtins: true,
      plugin_tools: [{ plugin: 'k8s', expose: ['get'] }],
      root_dir: root,
      project_dir: '/home/ada/project',
      workflow: 'wf',
      step: 'review',
      run_id: 'r1',
      owner_pid: process.pid,
      events_path: join(root, 'review.events.jsonl'),
    });
    expect(session.injection).toMatchObject({
      serverName: 'awf-proxy',
      command: '/usr/bin/node',
      args: ['/opt/awf/dist/main.js', 'mcp-serve', `--config=${file}`],
      interceptBuiltins: true,
    });
    session.close();
    expect(existsSync(dirname(file))).toBe(false);
    expect(() => session.close()).not.toThrow();
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('runs the preflight in-process: opens the step scope once and closes it', async () => {
    const session = await new ToolProxyService(factory, {
      launch: (file) => ({ command: 'node', args: ['m.js', 'mcp-serve', `--config=${file}`] }),
      dirs: new PrivateTempDirs(tmp),
      scopes: new RealToolScopeResolver(),
    }).start(request());
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({
      interceptBuiltins: true,
      step: 'review',
      pluginTools: [{ plugin: 'k8s', expose: ['get'] }],
    });
    expect(closed).toHaveLength(1);
    session.close();
  });

  it("checks the step's upstream servers without starting them (they start once, in mcp-serve); names the pins", async () => {
    const checked: string[] = [];
    const docs = { name: 'docs', command: 'docs-server' };
    const session = await new ToolProxyService(factory, {
      launch: (file) => ({ command: 'node', args: ['m.js', 'mcp-serve', `--config=${file}`] }),
      dirs: new PrivateTempDirs(tmp),
      scopes: new RealToolScopeResolver(),
      mcpServers: () => ({ docs }),
      upstreamProbe: { check: (spec) => void checked.push(spec.name) },
      pinsDir: () => '/data/awf/mcp-pins',
    }).start({ ...request(), settings: { ...settings, servers: ['docs'] } });
    expect(checked).toEqual(['docs']);
    expect(opened).toHaveLength(1);
    expect(opened[0].upstreams).toBeUndefined();
    const written = JSON.parse(readFileSync(session.injection.configPath, 'utf8'));
    expect(written.upstreams).toEqual([docs]);
    expect(written.pins_dir).toBe('/data/awf/mcp-pins'); // the run's data dir, whatever the agent passes on of the env
    session.close();
  });

  it('fails before any agent starts when the preflight refuses, leaving no file behind', async () => {
    const refusing = {
      open: jest.fn(async () =>
        Promise.reject(new AwfError('USER.MCP_PROXY.UNKNOWN_PLUGIN', 'plugin "k8s" not found')),
      ),
    };
    await expect(
      new ToolProxyService(refusing, {
        launch: (file) => ({ command: 'node', args: ['m.js', 'mcp-serve', `--config=${file}`] }),
        dirs: new PrivateTempDirs(tmp),
        scopes: new RealToolScopeResolver(),
      }).start(request()),
    ).rejects.toMatchObject({ code: 'USER.MCP_PROXY.UNKNOWN_PLUGIN' });
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('refuses a sandbox root that does not exist', async () => {
    await expect(
      new ToolProxyService(factory, {
        launch: (file) => ({ command: 'node', args: ['m.js', 'mcp-serve', `--config=${file}`] }),
        dirs: new PrivateTempDirs(tmp),
        scopes: new RealToolScopeResolver(),
      }).start({ ...request(), rootDir: join(root, 'missing') }),
    ).rejects.toMatchObject({ code: 'USER.MCP_PROXY.INVALID_CONFIG' });
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('closeAll removes whatever is still open', async () => {
    const proxies = new ToolProxyService(factory, {
      launch: (file) => ({ command: 'node', args: ['m.js', 'mcp-serve', `--config=${file}`] }),
      dirs: new PrivateTempDirs(tmp),
      scopes: new RealToolScopeResolver(),
    });
    await proxies.start(request());
    await proxies.start({ ...request(), step: 'second' });
    expect(readdirSync(tmp)).toHaveLength(2);
    proxies.closeAll();
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('wants a proxy only when enabled with something to serve (AWF)', () => {
    expect(ToolProxyService.wanted(undefined)).toBe(false);
    expect(ToolProxyService.wanted({ enable: false, interceptBuiltins: true, pluginTools: [] })).toBe(false);
    expect(ToolProxyService.wanted({ enable: true, interceptBuiltins: false, pluginTools: [] })).toBe(false);
    expect(ToolProxyService.wanted({ enable: true, interceptBuiltins: true, pluginTools: [] })).toBe(true);
  });
});
