import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { REPO_ROOT, runAwf } from '../support/cli';
import { connectMcpServe } from '../support/mcp-client';

// Real processes on a shared two-core machine: generous bounds, never timing assertions.
jest.setTimeout(180_000);

const EXAMPLES = resolve(REPO_ROOT, 'examples/plugins');
/** The suite shares two cores with other work; a CLI run may take far longer than usual. */
const SLOW_MACHINE_MS = 90_000;

describe('awf plugin list / enable / disable', () => {
  const dir = mkdtempSync(join(tmpdir(), 'awf-plugin-cli-'));
  const env = {
    AWF_PLUGINS_PATH: EXAMPLES,
    XDG_DATA_HOME: join(dir, 'xdg'),
    AWF_KV_FILE: join(dir, 'kv.json'),
    AWF_PLUGIN_HANDSHAKE_TIMEOUT_MS: '30000',
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lists installed plugins with version, status and operations', () => {
    const res = runAwf(['plugin', 'list'], { env, cwd: dir, timeout: SLOW_MACHINE_MS });
    expect(res.status).toBe(0);
    expect(res.stdout.split('\n')).toEqual([
      'NAME  VERSION  STATUS   OPERATIONS',
      'kv    1.0.0    enabled  get, set, list',
      'time  1.0.0    enabled  now',
      '',
    ]);
  });

  it('disables a plugin: it is listed as disabled, not started, and mcp-serve refuses it', () => {
    const off = runAwf(['plugin', 'disable', 'kv'], { env, cwd: dir, timeout: SLOW_MACHINE_MS });
    expect(off.status).toBe(0);
    expect(off.stdout).toContain(`plugin kv disabled (${join(dir, 'xdg/awf/plugins/plugins.json')})`);
    expect(JSON.parse(readFileSync(join(dir, 'xdg/awf/plugins/plugins.json'), 'utf8')).kv.enabled).toBe(false);
    const list = runAwf(['plugin', 'list', '-f', 'json'], { env, cwd: dir, timeout: SLOW_MACHINE_MS });
    const plugins = JSON.parse(list.stdout).plugins as Array<{ name: string; status: string; operations: unknown[] }>;
    expect(plugins.map((p) => [p.name, p.status, p.operations.length])).toEqual([
      ['kv', 'disabled', 0],
      ['time', 'enabled', 1],
    ]);
    const config = join(dir, 'proxy.json');
    writeFileSync(
      config,
      JSON.stringify({ version: 1, intercept_builtins: false, plugin_tools: [{ plugin: 'kv', expose: ['get'] }] }),
    );
    const serve = runAwf(['mcp-serve', `--config=${config}`], { env, cwd: dir, timeout: SLOW_MACHINE_MS });
    expect(serve.status).toBe(1);
    expect(serve.stderr).toContain('[USER.MCP_PROXY.UNKNOWN_PLUGIN] plugin "kv" is disabled');
    expect(serve.stderr).toContain('awf plugin enable kv');
    expect(runAwf(['plugin', 'enable', 'kv'], { env, cwd: dir, timeout: SLOW_MACHINE_MS }).status).toBe(0);
    expect(runAwf(['plugin', 'list'], { env, cwd: dir, timeout: SLOW_MACHINE_MS }).stdout).toContain(
      'kv    1.0.0    enabled  get, set, list',
    );
  });

  it('refuses to enable a plugin that is not installed', () => {
    const res = runAwf(['plugin', 'enable', 'weather'], { env, cwd: dir, timeout: SLOW_MACHINE_MS });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('[USER.PLUGIN.NOT_FOUND] plugin "weather" is not installed');
  });
});

describe('awf plugin init: from scaffold to a tool an agent calls', () => {
  const dir = mkdtempSync(join(tmpdir(), 'awf-plugin-init-'));
  const plugins = join(dir, 'plugins');
  const project = join(plugins, 'weather');
  const env = { AWF_PLUGINS_PATH: plugins, XDG_DATA_HOME: join(dir, 'xdg'), AWF_PLUGIN_HANDSHAKE_TIMEOUT_MS: '30000' };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('scaffolds a project that builds and passes its own test', () => {
    mkdirSync(plugins);
    const init = runAwf(['plugin', 'init', 'weather'], { cwd: plugins, env, timeout: SLOW_MACHINE_MS });
    expect(init.status).toBe(0);
    expect(init.stdout).toContain(`created plugin weather in ${project}`);
    // Offline stand-in for `npm install`: the dependencies it would fetch are this repo's own.
    mkdirSync(join(project, 'node_modules/.bin'), { recursive: true });
    symlinkSync(REPO_ROOT, join(project, 'node_modules/awf'));
    symlinkSync(join(REPO_ROOT, 'node_modules/typescript'), join(project, 'node_modules/typescript'));
    symlinkSync(join(REPO_ROOT, 'node_modules/@types'), join(project, 'node_modules/@types'));
    symlinkSync('../typescript/bin/tsc', join(project, 'node_modules/.bin/tsc'));
    const test = spawnSync('npm', ['test'], {
      cwd: project,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, npm_config_offline: 'true' },
    });
    expect(test.stderr + test.stdout).toMatch(/# pass 2/);
    expect(test.status).toBe(0);
    expect(existsSync(join(project, 'dist/plugin.js'))).toBe(true);
  }, 150_000);

  it('is listed by awf and serves weather_greet over MCP', async () => {
    expect(runAwf(['plugin', 'list'], { cwd: dir, env, timeout: SLOW_MACHINE_MS }).stdout).toContain(
      'weather  0.1.0    enabled  greet',
    );
    const session = await connectMcpServe(
      dir,
      { intercept_builtins: false, plugin_tools: [{ plugin: 'weather', expose: ['greet'] }] },
      { env },
    );
    try {
      const { tools } = await session.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['weather_greet']);
      expect(await session.client.callTool({ name: 'weather_greet', arguments: { name: 'Ada' } })).toMatchObject({
        structuredContent: { greeting: 'Hello, Ada!' },
      });
    } finally {
      await session.close();
    }
  });

  it('refuses an invalid name with a USER error', () => {
    const res = runAwf(['plugin', 'init', 'Bad Name'], { cwd: dir, env, timeout: SLOW_MACHINE_MS });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('[USER.PLUGIN.INVALID_NAME]');
  });
});

describe('a plugin that cannot be used says why', () => {
  const dir = mkdtempSync(join(tmpdir(), 'awf-plugin-why-'));
  const plugins = join(dir, 'plugins');
  const env = {
    AWF_PLUGINS_PATH: `${EXAMPLES}:${plugins}`,
    XDG_DATA_HOME: join(dir, 'xdg'),
    AWF_PLUGIN_HANDSHAKE_TIMEOUT_MS: '30000',
  };
  const broken = (name: string, script: string) => {
    mkdirSync(join(plugins, name), { recursive: true });
    writeFileSync(
      join(plugins, name, 'plugin.yaml'),
      `name: ${name}\nversion: 0.1.0\ncapabilities: [operations]\ncommand: node plugin.js\n`,
    );
    writeFileSync(join(plugins, name, 'plugin.js'), script);
  };
  beforeAll(() => {
    // A plugin copied without its node_modules: Node's crash preamble comes before the reason.
    broken('moved', "require('awf-sdk-that-is-not-installed');\n");
    // A plugin whose logger prints JSON lines before it gives up.
    broken(
      'noisy',
      [
        "const log = (level, msg) => process.stderr.write(JSON.stringify({ level, time: Date.now(), pid: process.pid, msg }) + '\\n');",
        "log(30, 'Starting Nest application...');",
        "log(30, 'NoisyModule dependencies initialized');",
        "log(50, 'WEATHER_API_KEY is not set');",
        'process.exit(1);',
      ].join('\n'),
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lists a broken plugin with its whole reason: the meaningful stderr line, not the noise', () => {
    const res = runAwf(['plugin', 'list'], { env, cwd: dir, timeout: SLOW_MACHINE_MS });
    expect(res.status).toBe(0);
    const line = (name: string) => res.stdout.split('\n').find((l) => l.startsWith(name)) ?? '';
    expect(line('moved')).toMatch(
      /^moved +0\.1\.0 +broken +- \(plugin moved exited with code 1 before its handshake: Error: Cannot find module 'awf-sdk-that-is-not-installed'\)$/,
    );
    expect(line('noisy')).toMatch(
      /broken +- \(plugin noisy exited with code 1 before its handshake: WEATHER_API_KEY is not set\)$/,
    );
    const json = JSON.parse(
      runAwf(['plugin', 'list', '-f', 'json'], { env, cwd: dir, timeout: SLOW_MACHINE_MS }).stdout,
    );
    const noisy = json.plugins.find((p: { name: string }) => p.name === 'noisy');
    expect(noisy.problem).toContain('its last stderr lines:\n{"level":30');
  });

  it('names a disabled plugin as disabled, with the command that enables it: a warning in validate, the step error in run', () => {
    expect(runAwf(['plugin', 'disable', 'kv'], { env, cwd: dir, timeout: SLOW_MACHINE_MS }).status).toBe(0);
    writeFileSync(
      join(dir, 'wf.yaml'),
      [
        'name: uses-kv',
        'states:',
        '  initial: read',
        '  read:',
        '    type: operation',
        '    operation: kv.get',
        '    inputs: {key: a}',
        '    on_success: done',
        '  done: {type: terminal}',
        '',
      ].join('\n'),
    );
    // AWF's validate does not look at plugins: a warning, an error with --strict.
    const validate = runAwf(['validate', 'wf.yaml'], { env, cwd: dir, timeout: SLOW_MACHINE_MS });
    expect(validate.status).toBe(0);
    expect(validate.stderr).toContain(
      'warning: [WORKFLOW.VALIDATION.UNKNOWN_OPERATION] states.read.operation: plugin "kv" is disabled; ' +
        'enable it with `awf plugin enable kv`',
    );
    const strict = runAwf(['validate', 'wf.yaml', '--strict'], { env, cwd: dir, timeout: SLOW_MACHINE_MS });
    expect(strict.status).toBe(2);
    // The run stops at the step, saying the same.
    const run = runAwf(['run', 'wf.yaml'], { env, cwd: dir, timeout: SLOW_MACHINE_MS });
    expect(run.status).toBe(1);
    // Said once, under the step that failed (the closing line then says how to resume).
    expect(run.stderr).toMatch(
      /\[USER\.MCP_PROXY\.UNKNOWN_PLUGIN\] plugin "kv" is disabled\n\s+hint: Run `awf plugin enable kv`\./,
    );
    expect(run.stderr.split('[USER.MCP_PROXY.UNKNOWN_PLUGIN]')).toHaveLength(2);
    expect(run.stderr).not.toContain('not found');
  });
});
