import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { AwfError } from '../../../src/domain/errors/awf-error';
import { PluginHost } from '../../../src/infrastructure/plugins/plugin-host.service';
import { readPlugin } from '../../../src/infrastructure/plugins/plugin-manifest';
import { PluginProcess } from '../../../src/infrastructure/plugins/plugin-process';
import { PluginStateStore } from '../../../src/infrastructure/plugins/plugin-state.store';
import { EXAMPLE_PLUGINS, fixturePlugins, isAlive } from './plugin-fixtures';
import { memoryLogger } from './plugin-test-logger';

// Real processes on a shared two-core machine: generous bounds, never timing assertions.
jest.setTimeout(180_000);

describe('PluginHost: the go-plugin handshake and process lifecycle with real plugin processes', () => {
  const dataHome = mkdtempSync(join(tmpdir(), 'awf-plugins-data-'));
  const fixtures = fixturePlugins({
    plain: { startup: 'plaintext', operations: { echo: {} } },
    cookie: { startup: 'wrong-cookie' },
    garbage: { startup: 'garbage' },
    silent: { startup: 'silent' },
    stubborn: { startup: 'stubborn', operations: { pid: { behaviour: 'pid' } } },
  });
  const logger = memoryLogger();
  let host: PluginHost;
  const savedXdg = process.env.XDG_DATA_HOME;

  beforeAll(() => {
    process.env.XDG_DATA_HOME = dataHome;
    process.env.AWF_PLUGIN_HANDSHAKE_TIMEOUT_MS = '30000'; // the shared test machine is noisy
  });
  beforeEach(() => {
    host = new PluginHost(logger, new PluginStateStore());
  });
  afterEach(() => host.stopAll());
  afterAll(() => {
    process.env.XDG_DATA_HOME = savedXdg;
    fixtures.cleanup();
    rmSync(dataHome, { recursive: true, force: true });
  });

  it('starts an SDK plugin over mTLS, lists its operations and executes one', async () => {
    const running = await host.acquire(readPlugin(join(EXAMPLE_PLUGINS, 'time')));
    expect(running.operations.map((o) => o.name)).toEqual(['now']);
    const res = await running.connection.execute('now', {});
    expect(res.success).toBe(true);
    expect(JSON.parse(Buffer.from(res.data.iso8601).toString())).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(logger.lines).toContainEqual(
      expect.objectContaining({
        msg: 'plugin started',
        fields: expect.objectContaining({ plugin: 'time', tls: true }),
      }),
    );
  });

  it('answers GetInfo with the name, version and description of plugin.yaml when the definition leaves them out', async () => {
    const dir = join(fixtures.dir, 'manifest-only');
    mkdirSync(join(dir, 'dist'), { recursive: true });
    writeFileSync(
      join(dir, 'plugin.yaml'),
      'name: manifest-only\nversion: 2.3.4\ndescription: Written once\ncapabilities: [operations]\ncommand: node dist/plugin.js\n',
    );
    const sdk = require.resolve('awf/plugin-sdk');
    writeFileSync(
      join(dir, 'dist/plugin.js'),
      `require(${JSON.stringify(sdk)}).serve({ operations: { hi: { description: 'Says hi.', run: () => 'hi' } } });\n`,
    );
    const running = await host.acquire(readPlugin(dir));
    expect(await running.connection.getInfo()).toEqual({
      name: 'manifest-only',
      version: '2.3.4',
      description: 'Written once',
      capabilities: ['operations'],
    });
    expect(running.operations.map((o) => o.name)).toEqual(['hi']);
  });

  it('talks plaintext to a plugin that sends no certificate', async () => {
    const running = await host.acquire(readPlugin(join(fixtures.dir, 'plain')));
    const res = await running.connection.execute('echo', { word: 'hi' });
    expect(JSON.parse(Buffer.from(res.data.echoed).toString())).toEqual({ word: 'hi' });
    expect(logger.lines).toContainEqual(
      expect.objectContaining({
        msg: 'plugin started',
        fields: expect.objectContaining({ plugin: 'plain', tls: false }),
      }),
    );
  });

  it('reports a plugin that rejects the magic cookie, with its stderr', async () => {
    const err = await host.acquire(readPlugin(join(fixtures.dir, 'cookie'))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AwfError);
    expect((err as AwfError).code).toBe('EXECUTION.PLUGIN.HANDSHAKE_FAILED');
    expect((err as AwfError).message).toContain('exited with code 1 before its handshake');
    expect((err as AwfError).message).toContain('magic cookie mismatch');
  });

  it('rejects a garbage first line and leaves no process behind', async () => {
    const plugin = readPlugin(join(fixtures.dir, 'garbage'));
    const err = (await PluginProcess.start('garbage', plugin.launch!, { logger }).catch((e: unknown) => e)) as AwfError;
    expect(err.code).toBe('EXECUTION.PLUGIN.HANDSHAKE_FAILED');
    expect(err.message).toContain('not a go-plugin handshake line');
    expect(String(err.details.command)).toBe(process.execPath);
    expect(isAlive(err.details.pid as number)).toBe(false);
  });

  it('gives up on a plugin that never completes the handshake and kills it', async () => {
    const plugin = readPlugin(join(fixtures.dir, 'silent'));
    const err = (await PluginProcess.start('silent', plugin.launch!, { logger, handshakeTimeoutMs: 1_000 }).catch(
      (e: unknown) => e,
    )) as AwfError;
    expect(err.code).toBe('EXECUTION.PLUGIN.HANDSHAKE_TIMEOUT');
    expect(err.message).toContain('did not complete the handshake within 1 s');
    expect(isAlive(err.details.pid as number)).toBe(false);
  });

  it('stops every plugin it started: Shutdown for a cooperative one, SIGKILL for one that ignores it', async () => {
    const time = await host.acquire(readPlugin(join(EXAMPLE_PLUGINS, 'time')));
    const stubborn = await host.acquire(readPlugin(join(fixtures.dir, 'stubborn')));
    const pids = [time.process.pid!, stubborn.process.pid!];
    expect(pids.every(isAlive)).toBe(true);
    await host.stopAll();
    expect(pids.filter(isAlive)).toEqual([]);
    expect(await time.process.exited).toEqual({ code: 0, signal: null });
    expect(await stubborn.process.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(
      logger.lines.filter(
        (l) => l.msg === 'plugin exited unexpectedly' && ['time', 'stubborn'].includes(l.fields.plugin as string),
      ),
    ).toEqual([]);
    for (const running of [time, stubborn]) {
      expect(running.endpoint.network).toBe('unix');
      expect(existsSync(dirname(dirname(running.endpoint.address)))).toBe(false);
    }
  });

  it('says which plugin is missing its executable', async () => {
    const broken = fixturePlugins({ nobin: { manifest: 'name: nobin\nversion: 1.0.0\ncapabilities: [operations]\n' } });
    try {
      const plugin = readPlugin(join(broken.dir, 'nobin'));
      expect(plugin.problem).toContain('no executable awf-plugin-nobin');
      await expect(host.acquire(plugin)).rejects.toMatchObject({ code: 'SYSTEM.PLUGIN.BINARY_MISSING' });
    } finally {
      broken.cleanup();
    }
  });
});
