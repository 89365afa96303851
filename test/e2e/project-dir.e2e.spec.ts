import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ECHO_EXTENSION, REPO_ROOT } from '../support/cli';
import { PLAIN } from '../support/launch-paths';
import { connectMcpServe } from '../support/mcp-client';

// Real processes on a shared two-core machine: generous bounds, never timing assertions.
jest.setTimeout(180_000);

/**
 * Issue 19 item 7: an agent may start `mcp-serve` from any cwd (its own home, a temp dir).
 * The proxy config carries the run's project dir, and the project's extensions (paths relative
 * to it) and its `.awf/plugins` (a symlinked folder here) load from there.
 */
describe.each([PLAIN])('mcp-serve started from another cwd ($name launch)', (launch) => {
  const scratch = mkdtempSync(join(tmpdir(), 'awf-project-dir-'));
  const project = join(scratch, 'project');
  const elsewhere = join(scratch, 'agent-home');
  const env = { AWF_PLUGINS_PATH: '', XDG_DATA_HOME: join(scratch, 'xdg'), AWF_PLUGIN_HANDSHAKE_TIMEOUT_MS: '60000' };
  beforeAll(() => {
    mkdirSync(join(project, 'ext'), { recursive: true });
    mkdirSync(join(project, '.awf/plugins'), { recursive: true });
    mkdirSync(elsewhere);
    copyFileSync(ECHO_EXTENSION, join(project, 'ext/echo-tools.module.js'));
    writeFileSync(join(project, '.awf/config.yaml'), 'extensions:\n  - ./ext/echo-tools.module.js\n');
    symlinkSync(resolve(REPO_ROOT, 'examples/plugins/time'), join(project, '.awf/plugins/time'));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("serves the project's extension tools and plugins when the config names the project", async () => {
    const session = await connectMcpServe(
      elsewhere,
      {
        intercept_builtins: false,
        project_dir: project,
        root_dir: project,
        plugin_tools: [{ plugin: 'time', expose: ['now'] }],
      },
      { cwd: elsewhere, env, launch },
    );
    try {
      const names = (await session.client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['echo', 'scope', 'time_now']));
      expect(await session.client.callTool({ name: 'echo', arguments: { text: 'from the project' } })).toMatchObject({
        content: [{ type: 'text', text: 'from the project' }],
      });
      const now = await session.client.callTool({ name: 'time_now', arguments: {} });
      expect(now.isError).toBeFalsy();
    } finally {
      await session.close();
    }
  });

  it('without project_dir, the cwd is the project: the extension is not there', async () => {
    const session = await connectMcpServe(
      elsewhere,
      { intercept_builtins: true, root_dir: project },
      {
        cwd: elsewhere,
        env,
        launch,
      },
    );
    try {
      const names = (await session.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('Read');
      expect(names).not.toContain('echo');
    } finally {
      await session.close();
    }
  });
});
