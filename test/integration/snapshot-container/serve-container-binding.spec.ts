import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v8 from 'node:v8';
import type { INestApplicationContext } from '@nestjs/common';
import { buildToolScope } from '../../../src/infrastructure/config/tool-scope.resolver';
import type { AppLogger } from '../../../src/domain/ports/app-logger.port';
import type { SecretMasker } from '../../../src/domain/ports/secret-masker.port';
import type { ToolRouterFactory } from '../../../src/domain/ports/tool-router-factory.port';
import { APP_LOGGER, SECRET_MASKER, TOOL_ROUTER_FACTORY } from '../../../src/domain/ports/tokens';
import { bindDeferred } from '../../../src/infrastructure/core/process-bound';
import { buildServeContainer } from '../../../src/interfaces/cli/mcp-serve.direct';

/**
 * mcp-serve's container as the startup snapshot build makes it (ADR 094, amended): made while
 * V8 says a snapshot is being built, it must hold nothing of the process (no signal handler, no
 * logger, no masker, no env value), and bound afterwards it must serve this process's.
 */
describe('the serve container made while the startup snapshot is built', () => {
  let building = true;
  let app: INestApplicationContext;
  const saved = { ...process.env };
  const root = mkdtempSync(join(tmpdir(), 'awf-snapc-'));
  const signals = () => [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
  const before = signals();

  // The build runs in a poisoned process: an odd cwd, a fake secret, and every env variable read
  // answers a marker. Nothing of it may reach what the bound container does (ADR 112).
  const odd = mkdtempSync(join(tmpdir(), 'awf-poisoned-cwd-'));
  const readAtBuild = new Set<string>();
  beforeAll(async () => {
    jest.spyOn(v8.startupSnapshot, 'isBuildingSnapshot').mockImplementation(() => building);
    const cwd = process.cwd();
    const real = process.env;
    process.env = new Proxy(
      { ...real, POISON_API_TOKEN: 'poison-secret-4711' },
      {
        get: (target, key) => {
          if (typeof key !== 'string') return undefined;
          readAtBuild.add(key);
          return key === 'POISON_API_TOKEN' ? target[key] : `POISON-${key}`;
        },
      },
    );
    process.chdir(odd);
    try {
      app = await buildServeContainer();
    } finally {
      process.chdir(cwd);
      process.env = real;
    }
  });
  afterAll(async () => {
    await app?.close();
    jest.restoreAllMocks();
    process.env = saved;
    rmSync(root, { recursive: true, force: true });
    rmSync(odd, { recursive: true, force: true });
  });

  it('installs no signal handler and refuses the logger and the masker until bound', () => {
    expect(signals()).toEqual(before);
    expect(() => app.get<SecretMasker>(SECRET_MASKER).mask('x')).toThrow(/startup snapshot/);
    expect(() => app.get<AppLogger>(APP_LOGGER).info({}, 'x')).toThrow(/startup snapshot/);
  });

  it('once bound, handles signals and masks, logs and reads the environment of the running process', async () => {
    building = false;
    Object.assign(process.env, {
      SNAPC_API_TOKEN: 'bound-secret-7319',
      AWF_LOG_TOOL_ARGS: '1',
      AWF_LOG_LEVEL: 'silent',
    });
    expect(bindDeferred()).toBeGreaterThanOrEqual(2); // the signal handlers, AWF_LOG_TOOL_ARGS
    expect(bindDeferred()).toBe(0); // twice binds once
    expect(signals()).toEqual(before.map((n) => n + 1));
    expect(app.get<SecretMasker>(SECRET_MASKER).mask('key=bound-secret-7319')).toBe('key=***');

    const info = jest.spyOn(app.get<AppLogger>(APP_LOGGER), 'info');
    const tools = await app
      .get<ToolRouterFactory>(TOOL_ROUTER_FACTORY)
      .open(buildToolScope({ version: 1, intercept_builtins: true, plugin_tools: [], root_dir: root }));
    await tools.call('Glob', { pattern: '*.none' });
    await tools.close();
    const line = info.mock.calls.find(([, msg]) => msg === 'tool call');
    expect(line?.[0]).toMatchObject({ tool: 'Glob', args: { pattern: '*.none' } }); // AWF_LOG_TOOL_ARGS=1 read after the build
  });

  it('carries nothing of the poisoned build into what it does once bound', async () => {
    const masker = app.get<SecretMasker>(SECRET_MASKER);
    expect(masker.mask('poison-secret-4711')).toBe('poison-secret-4711'); // the build's secret is not this process's
    const info = jest.spyOn(app.get<AppLogger>(APP_LOGGER), 'info');
    const tools = await app
      .get<ToolRouterFactory>(TOOL_ROUTER_FACTORY)
      .open(buildToolScope({ version: 1, intercept_builtins: true, plugin_tools: [], root_dir: root }));
    const answers = [
      await tools.call('Bash', { command: 'pwd; env' }),
      await tools.call('Grep', { pattern: 'x' }),
      await tools.call('Glob', { pattern: '*' }),
    ];
    await tools.close();
    const logged = info.mock.calls
      .filter(([, msg]) => msg === 'tool call')
      .map(([fields]) => (fields as { tool: string }).tool);
    expect(logged).toEqual(expect.arrayContaining(['Bash', 'Grep', 'Glob']));
    const seen = JSON.stringify([answers, info.mock.calls]);
    expect(seen).not.toMatch(/POISON-|poison-secret|awf-poisoned-cwd/);
    expect(JSON.stringify(answers[0])).toContain(root);
  });

  it('read, while it was built, only what Nest reads at each use and keeps nothing of', () => {
    // NEST_DEBUG (the injector's debug output) and NO_COLOR (Nest's logger colours) are read
    // anew at every use; none of awf's providers read anything: they bind through onProcess.
    expect([...readAtBuild].sort()).toEqual(['NEST_DEBUG', 'NO_COLOR']);
  });
});
