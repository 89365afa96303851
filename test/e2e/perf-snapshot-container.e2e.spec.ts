import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { selfCommand } from '../../src/infrastructure/core/self-command';
import { ECHO_EXTENSION, REPO_ROOT, projectWithExtensions, scratchDir } from '../support/cli';
import { describeUnless } from '../support/skip';

const DIST = resolve(REPO_ROOT, 'dist');
const built = existsSync(join(DIST, 'awf-mcp.blob.json'));
const SECRET = `snapc-${process.pid}-${Date.now().toString(36)}`;

const frame = (id: number | undefined, method: string, params: object = {}) =>
  JSON.stringify({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method, params });
const INITIALIZE = frame(1, 'initialize', {
  protocolVersion: '2025-06-18',
  capabilities: {},
  clientInfo: { name: 'snapc', version: '1' },
});
const lines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, any>);

/**
 * The startup snapshot holds mcp-serve's container, built when the blob was built (ADR 094,
 * amended). What it holds of a process must be the process that runs, never the build's:
 * these starts would log the build's pid, miss this env's secrets, ignore AWF_LOG_LEVEL or
 * die on SIGTERM without their hooks if a provider kept what it read when it was made.
 */
describeUnless(
  built ? undefined : 'no startup snapshot in dist/ (npm run build prints why)',
  'mcp-serve from the container in the startup snapshot',
  () => {
    const project = scratchDir({ 'notes.txt': 'hello\n' }); // no .awf/config.yaml: no extensions
    afterAll(() => project.cleanup());

    const proxyConfig = (name: string, extra: object = {}) => {
      const file = join(project.dir, `${name}.json`);
      writeFileSync(
        file,
        JSON.stringify({
          version: 1,
          intercept_builtins: true,
          plugin_tools: [],
          step: name,
          root_dir: project.dir,
          events_path: join(project.dir, `${name}.events.jsonl`),
          ...extra,
        }),
      );
      return file;
    };
    const launch = (config: string, env: Record<string, string>) => ({
      cmd: selfCommand(['mcp-serve', `--config=${config}`], { distDir: DIST }),
      env: { ...(process.env as Record<string, string>), ...env },
    });

    /** Sends `frames`, waits for the answer to `lastId`, then ends it (stdin closed, or `signal`); all it wrote. */
    const serve = async (
      config: string,
      env: Record<string, string>,
      frames: string[],
      lastId: number,
      end: 'stdin' | NodeJS.Signals = 'stdin',
      cwd = project.dir,
    ) => {
      const { cmd, env: fullEnv } = launch(config, env);
      const child = spawn(cmd.command, cmd.args, { cwd, env: fullEnv, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const exited = once(child, 'close'); // after stdout and stderr are read to the end
      const answered = new Promise<void>((done) =>
        child.stdout.on('data', (c: Buffer) => (stdout += c.toString()).includes(`"id":${lastId}`) && done()),
      );
      child.stdin.write(frames.join('\n') + '\n');
      await Promise.race([answered, exited]);
      if (end === 'stdin') child.stdin.end();
      else child.kill(end);
      const [code, signal] = await exited;
      return { code, signal, stdout, stderr, pid: child.pid };
    };

    it('is started with the snapshot', () => {
      expect(launch('x.json', {}).cmd.args).toContain('--snapshot-blob');
    });

    it('logs with its own pid and level, masks its own secrets and reads its own AWF_LOG_TOOL_ARGS', async () => {
      const config = proxyConfig('masked');
      const r = await serve(
        config,
        { AWF_LOG_LEVEL: 'debug', AWF_LOG_TOOL_ARGS: '1', SNAPC_API_TOKEN: SECRET },
        [
          INITIALIZE,
          frame(undefined, 'notifications/initialized'),
          frame(2, 'tools/call', { name: 'Glob', arguments: { pattern: `${SECRET}/*.txt` } }),
        ],
        2,
      );
      expect({ code: r.code, signal: r.signal }).toEqual({ code: 0, signal: null });
      expect(lines(r.stdout).map((a) => a.id)).toEqual([1, 2]);
      const log = lines(r.stderr);
      expect(new Set(log.map((l) => l.pid))).toEqual(new Set([r.pid]));
      const phases = log.find((l) => l.msg === 'mcp-serve start phases'); // a debug line: AWF_LOG_LEVEL was read here
      expect(phases?.ms).toHaveProperty('bound'); // served by the snapshot's container, bound to this process
      expect(log.find((l) => l.msg === 'tool call')).toMatchObject({ tool: 'Glob', args: { pattern: '***/*.txt' } });
      expect(r.stderr).not.toContain(SECRET);
      expect(readFileSync(join(project.dir, 'masked.events.jsonl'), 'utf8')).toContain('"tool":"Glob"');
    });

    it('ends cleanly on SIGTERM with exit 0, its audit events written, at the level it was given', async () => {
      const config = proxyConfig('sigterm');
      const { code, signal, stdout, stderr } = await serve(
        config,
        { AWF_LOG_LEVEL: 'warn' },
        [
          INITIALIZE,
          frame(undefined, 'notifications/initialized'),
          frame(2, 'tools/call', { name: 'Read', arguments: { file_path: 'notes.txt' } }),
        ],
        2,
        'SIGTERM',
      );
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      expect(lines(stdout)[1].result.content[0].text).toContain('hello');
      expect(lines(readFileSync(join(project.dir, 'sigterm.events.jsonl'), 'utf8'))).toEqual([
        expect.objectContaining({ tool: 'Read', status: 'ok', step: 'sigterm' }),
      ]);
      expect(stderr).not.toContain('"level":30'); // warn: no info line (the build had no AWF_LOG_LEVEL)
    });

    it('renders a bad config as before: USER exit code, coded error masked with its own secrets, no stack', () => {
      const bad = join(project.dir, `bad-${SECRET}.json`);
      writeFileSync(bad, JSON.stringify({ version: 2, intercept_builtins: true, plugin_tools: [] }));
      const { cmd, env } = launch(bad, { AWF_LOG_LEVEL: 'warn', SNAPC_API_TOKEN: SECRET });
      const r = spawnSync(cmd.command, cmd.args, { cwd: project.dir, env, encoding: 'utf8', timeout: 20_000 });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('[USER.MCP_PROXY.INVALID_CONFIG] proxy config');
      expect(r.stderr).toContain('bad-***.json');
      expect(r.stderr).not.toContain(SECRET);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stdout).toBe('');
    });

    it('builds its container at start when the project lists extensions, and serves theirs', async () => {
      const withExt = projectWithExtensions([ECHO_EXTENSION]);
      try {
        const config = join(withExt.dir, 'proxy.json');
        writeFileSync(config, JSON.stringify({ version: 1, intercept_builtins: false, plugin_tools: [], step: 'ext' }));
        const r = await serve(
          config,
          { AWF_LOG_LEVEL: 'debug' },
          [INITIALIZE, frame(2, 'tools/list')],
          2,
          'stdin',
          withExt.dir,
        );
        expect({ code: r.code, signal: r.signal }).toEqual({ code: 0, signal: null });
        expect(lines(r.stdout)[1].result.tools.map((t: { name: string }) => t.name)).toContain('echo');
        const phases = lines(r.stderr).find((l) => l.msg === 'mcp-serve start phases');
        expect(phases?.ms).toHaveProperty('container');
        expect(phases?.ms).not.toHaveProperty('bound');
      } finally {
        withExt.cleanup();
      }
    });
  },
);
