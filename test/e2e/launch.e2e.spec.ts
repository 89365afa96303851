import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { selfCommand } from '../../src/infrastructure/core/self-command';
import { ECHO_EXTENSION, REPO_ROOT, projectWithExtensions } from '../support/cli';

const MODULE_REF_EXTENSION = resolve(REPO_ROOT, 'test/fixtures/perf/module-ref-tools.module.js');
const DIST = resolve(REPO_ROOT, 'dist');
const SECRET = 'perf-launch-s3cr3t-value';

/** Both ways awf starts: the bundle (what the launch command runs) and the plain tsc output. */
const launches: Array<{ name: string; env: Record<string, string> }> = [
  { name: 'the bundle', env: {} },
  { name: 'plain tsc output', env: { AWF_NO_BUNDLE: '1' } },
];
const args = (a: string[]): { command: string; args: string[] } => selfCommand(a, DIST);

describe.each(launches)('awf mcp-serve started from $name', ({ env }) => {
  const project = projectWithExtensions([ECHO_EXTENSION, MODULE_REF_EXTENSION]);
  // The sandbox root's name carries the secret, so the "ready" log line must mask it.
  const root = join(project.dir, SECRET);
  mkdirSync(root);
  const config = join(project.dir, 'proxy.json');
  writeFileSync(config, JSON.stringify({ version: 1, intercept_builtins: false, plugin_tools: [], root_dir: root }));
  let client: Client;
  let transport: StdioClientTransport;
  let stderr = '';

  beforeAll(async () => {
    const cmd = args(['mcp-serve', `--config=${config}`]);
    transport = new StdioClientTransport({
      command: cmd.command,
      args: cmd.args,
      cwd: project.dir,
      stderr: 'pipe',
      env: { ...(process.env as Record<string, string>), AWF_LOG_LEVEL: 'info', PERF_TEST_TOKEN: SECRET, ...env },
    });
    transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    client = new Client({ name: 'perf-launch-test', version: '1.0.0' });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    project.cleanup();
  });

  it('serves the tools of extension modules, including one that injects a Nest class by type', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'whoami']));
    expect(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).toEqual({
      content: [{ type: 'text', text: 'hi' }],
    });
    const who = await client.callTool({ name: 'whoami', arguments: {} });
    expect(JSON.parse((who.content as Array<{ text: string }>)[0].text)).toEqual({
      pid: transport.pid,
      moduleRef: true,
    });
  });

  it('logs its own pid and masks secrets in its log lines', () => {
    const ready = stderr
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((l) => l.msg === 'mcp-serve ready');
    expect(ready).toMatchObject({ pid: transport.pid });
    expect(ready.root).toContain('***');
    expect(stderr).not.toContain(SECRET);
  });
});

describe('the launch command for mcp-serve', () => {
  it('is a command a user can type: this node, a smaller young generation, dist/main.js, mcp-serve', () => {
    expect(selfCommand(['mcp-serve', '--config=/c.json'], DIST)).toEqual({
      command: process.execPath,
      args: ['--max-semi-space-size=4', join(DIST, 'main.js'), 'mcp-serve', '--config=/c.json'],
    });
  });
});
