import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAwf } from '../support/cli';
import { connectMcpServe } from '../support/mcp-client';

// Real processes and a real `npm install` on a shared two-core machine: generous bounds, no timing assertions.
jest.setTimeout(600_000);

/** Pids whose working directory is `dir` (Linux /proc). */
const processesIn = (dir: string): number[] =>
  readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readlinkSync(`/proc/${p}/cwd`) === dir;
      } catch {
        return false;
      }
    })
    .map(Number);

/**
 * Issue 19 item 6: `awf plugin init --nest` makes a plugin that is a Nest microservice on
 * @nestjs/microservices' gRPC transport, its handlers `@GrpcMethod`s, the go-plugin handshake
 * done by the SDK; built with a real `npm install`, it installs and serves like any plugin.
 */
describe('a Nest plugin from awf plugin init --nest', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'awf-plugin-nest-'));
  const project = join(scratch, 'project');
  const dir = join(scratch, 'tickets');
  const env = { XDG_DATA_HOME: join(scratch, 'xdg'), AWF_PLUGINS_PATH: '', AWF_PLUGIN_HANDSHAKE_TIMEOUT_MS: '60000' };
  const awf = (args: string[], cwd = project) => runAwf(args, { cwd, env, timeout: 240_000 });
  const npm = (args: string[]) =>
    spawnSync('npm', [...args, '--no-audit', '--no-fund'], { cwd: dir, encoding: 'utf8', timeout: 400_000 });
  beforeAll(() => mkdirSync(project, { recursive: true }));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('scaffolds a Nest microservice whose own tests pass after npm install', () => {
    const init = awf(['plugin', 'init', 'tickets', '--nest'], scratch);
    expect(init.status).toBe(0);
    expect(init.stdout).toContain('src/plugin.controller.ts');
    expect(readFileSync(join(dir, 'src/plugin.controller.ts'), 'utf8')).toContain(
      "@GrpcMethod('OperationService', 'Execute')",
    );
    expect(npm(['install', '--prefer-offline']).status).toBe(0);
    const test = npm(['test']);
    expect(test.stdout + test.stderr).toMatch(/# pass 2/);
    expect(test.status).toBe(0);
  });

  it('installs (its handshake checked), lists and serves tickets_greet over MCP, and stops with the step', async () => {
    const add = awf(['plugin', 'install', dir]);
    expect(add.stderr).toBe('');
    expect(add.stdout).toContain('plugin tickets 0.1.0 installed in');
    expect(add.stdout).toContain('operations: greet');
    expect(awf(['plugin', 'list']).stdout).toBe(
      'NAME     VERSION  STATUS   OPERATIONS\ntickets  0.1.0    enabled  greet\n',
    );
    const session = await connectMcpServe(
      scratch,
      { intercept_builtins: false, project_dir: project, plugin_tools: [{ plugin: 'tickets', expose: ['greet'] }] },
      { env, cwd: scratch },
    );
    try {
      const { tools } = await session.client.listTools();
      expect(tools.map((t) => [t.name, t.description?.split('.')[0]])).toEqual([
        ['tickets_greet', 'Greets someone by name'],
      ]);
      expect(await session.client.callTool({ name: 'tickets_greet', arguments: { name: 'Ada' } })).toMatchObject({
        structuredContent: { greeting: 'Hello, Ada!' },
      });
      const refused = await session.client.callTool({ name: 'tickets_greet', arguments: {} });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('invalid inputs: name is required');
      expect(processesIn(join(project, '.awf/plugins/tickets'))).toHaveLength(1);
    } finally {
      await session.close();
    }
    // The plugin runs in its folder: with the step's mcp-serve gone, no process has that folder as its cwd.
    for (let i = 0; i < 100 && processesIn(join(project, '.awf/plugins/tickets')).length > 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(processesIn(join(project, '.awf/plugins/tickets'))).toEqual([]);
  });
});
