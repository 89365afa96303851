import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { selfCommand } from '../../src/infrastructure/core/self-command';
import { ECHO_EXTENSION, REPO_ROOT, projectWithExtensions } from '../support/cli';
import { describeUnless } from '../support/skip';

const DIST = resolve(REPO_ROOT, 'dist');
const built = existsSync(join(DIST, 'awf-mcp.blob.json'));

/**
 * `awf mcp-serve` as `awf run` injects it, from the startup snapshot: the snapshot serves
 * `mcp-serve --config=<file>` without nest-commander (ADR 094) and must behave like the command:
 * same exit codes, errors, shutdown hooks; anything else goes to the full CLI.
 */
describeUnless(
  built ? undefined : 'no startup snapshot in dist/ (npm run build prints why)',
  'mcp-serve from the startup snapshot',
  () => {
    const project = projectWithExtensions([ECHO_EXTENSION]);
    const config = join(project.dir, 'proxy.json');
    writeFileSync(config, JSON.stringify({ version: 1, intercept_builtins: false, plugin_tools: [], step: 'snap' }));
    afterAll(() => project.cleanup());

    const launch = (args: string[], env: Record<string, string> = {}) => {
      const cmd = selfCommand(args, { distDir: DIST });
      return { cmd, env: { ...(process.env as Record<string, string>), AWF_LOG_LEVEL: 'warn', ...env } };
    };
    const run = (args: string[], input = '') => {
      const { cmd, env } = launch(args);
      return spawnSync(cmd.command, cmd.args, { cwd: project.dir, env, input, encoding: 'utf8', timeout: 20_000 });
    };

    it('is what the launch command starts', () => {
      expect(launch(['mcp-serve']).cmd.args).toContain('--snapshot-blob');
    });

    it('negotiates the protocol version as the SDK does, serves, and exits 0 when stdin closes', () => {
      const frames = [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '1999-01-01', capabilities: {}, clientInfo: { name: 't', version: '1' } },
        },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        { jsonrpc: '2.0', id: 3, method: 'resources/list' },
      ];
      const r = run(['mcp-serve', `--config=${config}`], frames.map((f) => JSON.stringify(f)).join('\n') + '\n');
      expect(r.status).toBe(0);
      const answers = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(answers[0].result).toMatchObject({
        protocolVersion: '2025-11-25',
        serverInfo: { name: 'awf-mcp-server' },
        capabilities: { tools: {} },
      });
      expect(answers[1].result.tools.map((t: { name: string }) => t.name)).toEqual([
        'echo',
        'explode',
        'reject',
        'scope',
      ]);
      expect(answers[2]).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'Method not found' } });
    });

    it('fails a bad config with the USER exit code and the coded error, no stack trace', () => {
      const bad = join(project.dir, 'bad.json');
      writeFileSync(bad, JSON.stringify({ version: 2, intercept_builtins: true, plugin_tools: [] }));
      const r = run(['mcp-serve', '--config', bad]);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('USER.MCP_PROXY.INVALID_CONFIG');
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stdout).toBe('');
    });

    it('hands any other argv to the full CLI (help, a missing --config)', () => {
      const help = run(['mcp-serve', '--help']);
      expect(help.status).toBe(0);
      expect(help.stdout).toContain('--config <file>');
      const missing = run(['mcp-serve']);
      expect(missing.status).toBe(1);
      expect(missing.stderr).toContain('--config');
    });

    it('exits 0 on SIGTERM after running the shutdown hooks of extension modules', async () => {
      const mark = join(project.dir, 'shutdown.mark');
      const { cmd, env } = launch(['mcp-serve', `--config=${config}`], {
        AWF_LOG_LEVEL: 'info',
        AWF_TEST_SHUTDOWN_MARK: mark,
      });
      const child = spawn(cmd.command, cmd.args, { cwd: project.dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
      await new Promise<void>((ready) =>
        child.stderr.on('data', (c: Buffer) => c.toString().includes('mcp-serve ready') && ready()),
      );
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
      expect(readFileSync(mark, 'utf8')).toBe('closed\n');
    });
  },
);
