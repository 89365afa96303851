import { Test, type TestingModule } from '@nestjs/testing';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildToolScope } from '../../../src/infrastructure/config/tool-scope.resolver';
import { isAwfError } from '../../../src/domain/errors/awf-error';
import { resultText } from '../../../src/domain/model/tool-result';
import type { ToolRouter } from '../../../src/domain/ports/tool-router.port';
import type { ToolRouterFactory } from '../../../src/domain/ports/tool-router-factory.port';
import { TOOL_ROUTER_FACTORY } from '../../../src/domain/ports/tokens';
import type { UpstreamServerSpec } from '../../../src/domain/proxy/upstream-server';
import { CoreModule } from '../../../src/infrastructure/core/core.module';
import { UpstreamsModule } from '../../../src/infrastructure/upstreams/upstreams.module';
import {
  childrenOf,
  isAlive,
  SERVER_EVERYTHING,
  SERVER_MEMORY,
  SERVER_SEQUENTIAL_THINKING,
  startEverythingHttp,
} from '../../support/upstream-servers';

// Real third-party servers on a shared two-core machine: generous bounds, never timing assertions.
jest.setTimeout(180_000);

const node = process.execPath;
const CANCEL_RECORDING = join(__dirname, '..', '..', 'fixtures', 'upstreams', 'cancel-recording.server.cjs');
const everything: UpstreamServerSpec = { name: 'everything', command: node, args: [SERVER_EVERYTHING, 'stdio'] };

describe('other MCP servers through the ToolRouter (UpstreamsModule wired by Nest)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'awf-upstreams-'));
  let app: TestingModule;
  let factory: ToolRouterFactory;
  const open: ToolRouter[] = [];
  const saved = process.env.AWF_TEST_UPSTREAM_TOKEN;
  const savedStorage = process.env.AWF_STORAGE;

  const dispatcher = async (upstreams: UpstreamServerSpec[]): Promise<ToolRouter> => {
    const d = await factory.open(
      buildToolScope({ version: 1, intercept_builtins: false, plugin_tools: [], upstreams, root_dir: dir }),
    );
    open.push(d);
    return d;
  };

  beforeAll(async () => {
    process.env.AWF_TEST_UPSTREAM_TOKEN = 'tok-5f2c81d9e0'; // a secret-looking name: the masker learns its value
    process.env.AWF_STORAGE = join(dir, 'storage'); // the servers' tool pins go there, not in the user's data dir
    app = await Test.createTestingModule({ imports: [CoreModule, UpstreamsModule] }).compile();
    await app.init();
    factory = app.get(TOOL_ROUTER_FACTORY);
  });
  afterAll(async () => {
    await Promise.all(open.map((d) => d.close()));
    await app.close();
    if (saved === undefined) delete process.env.AWF_TEST_UPSTREAM_TOKEN;
    else process.env.AWF_TEST_UPSTREAM_TOKEN = saved;
    if (savedStorage === undefined) delete process.env.AWF_STORAGE;
    else process.env.AWF_STORAGE = savedStorage;
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves server-everything over stdio under its prefix and passes results through unchanged', async () => {
    const d = await dispatcher([everything]);
    const names = d.list().map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'everything_echo',
        'everything_get-sum',
        'everything_get-tiny-image',
        'everything_get-structured-content',
      ]),
    );
    expect(d.list().find((t) => t.name === 'everything_echo')?.source).toBe('mcp:everything');
    expect(resultText(await d.call('everything_echo', { message: 'hi there' }))).toBe('Echo: hi there');
    expect(resultText(await d.call('everything_get-sum', { a: 2, b: 3 }))).toContain('5');
    const image = await d.call('everything_get-tiny-image', {});
    expect(image.content.map((c) => c.type)).toEqual(expect.arrayContaining(['text', 'image']));
    expect(image.content.find((c) => c.type === 'image')).toMatchObject({
      mimeType: 'image/png',
      data: expect.any(String),
    });
    const structured = await d.call('everything_get-structured-content', { location: 'New York' });
    expect(structured.structuredContent).toMatchObject({
      temperature: expect.any(Number),
      conditions: expect.any(String),
    });
    const links = await d.call('everything_get-resource-links', { count: 2 });
    expect(links.content.filter((c) => c.type === 'resource_link')).toHaveLength(2);
    const bad = await d.call('everything_get-sum', { a: 'two' });
    expect(bad.isError).toBe(true);
  });

  it('exposes only the tools its globs match, under the prefix it is given', async () => {
    const d = await dispatcher([{ ...everything, name: 'ev2', prefix: 'e_', expose: ['echo', 'get-s*'] }]);
    expect(
      d
        .list()
        .map((t) => t.name)
        .sort(),
    ).toEqual(['e_echo', 'e_get-structured-content', 'e_get-sum']);
  });

  it('expands ${VAR} in env from its own environment and masks the secret in what comes back', async () => {
    const d = await dispatcher([
      {
        name: 'envy',
        command: node,
        args: [SERVER_EVERYTHING, 'stdio'],
        env: { GIVEN_TOKEN: '${AWF_TEST_UPSTREAM_TOKEN}', PLAIN: 'plain-value' },
        expose: ['get-env'],
      },
    ]);
    const text = resultText(await d.call('envy_get-env', {}));
    expect(text).toContain('"PLAIN": "plain-value"');
    expect(text).toContain('"GIVEN_TOKEN": "***"');
    expect(text).not.toContain('tok-5f2c81d9e0');
  });

  it('refuses a server that names an unset variable, naming it', async () => {
    const err = await dispatcher([
      { name: 'unset', command: node, args: [SERVER_EVERYTHING], env: { T: '${AWF_TEST_SURELY_UNSET_VAR}' } },
    ]).catch((e: unknown) => e);
    expect(isAwfError(err) && err.code).toBe('USER.MCP_PROXY.UNSET_VARIABLE');
    expect((err as Error).message).toContain('AWF_TEST_SURELY_UNSET_VAR');
  });

  it('fails the scope with the stderr tail of a server that cannot start', async () => {
    const err = await dispatcher([
      everything,
      {
        name: 'broken',
        command: node,
        args: ['-e', 'console.error("fatal: no database at /nowhere"); process.exit(3)'],
      },
    ]).catch((e: unknown) => e);
    expect(isAwfError(err) && err.code).toBe('EXECUTION.UPSTREAM.START_FAILED');
    expect((err as Error).message).toMatch(/MCP server "broken" failed to start[\s\S]*fatal: no database at \/nowhere/);
  });

  it('makes a name collision with another server fatal, naming both', async () => {
    const err = await dispatcher([
      { ...everything, expose: ['echo'] },
      { ...everything, name: 'twin', prefix: 'everything_', expose: ['echo'] },
    ]).catch((e: unknown) => e);
    expect(isAwfError(err) && err.code).toBe('USER.MCP_PROXY.NAME_COLLISION');
    expect((err as Error).message).toContain('mcp:everything and mcp:twin');
  });

  it('passes progress back and bounds a slow call by the server timeout', async () => {
    const d = await dispatcher([
      { ...everything, name: 'slow', timeout_ms: 1500, expose: ['trigger-long-running-operation'] },
    ]);
    const progress: number[] = [];
    const done = await d.call(
      'slow_trigger-long-running-operation',
      { duration: 0.4, steps: 4 },
      { onProgress: (p) => progress.push(p.progress) },
    );
    expect(resultText(done)).toContain('completed');
    // The SDK client hands on the last notification as the answer arrives: on Node 22 it can come
    // just after the call has resolved (then it is dropped), so only the ones before it are sure.
    expect(progress.slice(0, 3)).toEqual([1, 2, 3]);
    expect(progress.length).toBeLessThanOrEqual(4);
    const late = await d.call('slow_trigger-long-running-operation', { duration: 30, steps: 2 });
    expect(late).toMatchObject({ isError: true });
    expect(resultText(late)).toContain('did not answer slow_trigger-long-running-operation within 1500 ms');
  });

  it('passes a cancellation on to the server: its handler is aborted', async () => {
    const log = join(dir, 'cancel.log');
    const d = await dispatcher([
      { name: 'patient', command: node, args: [CANCEL_RECORDING], env: { CANCEL_LOG: log } },
    ]);
    const controller = new AbortController();
    const pending = d.call('patient_wait', {}, { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 300));
    controller.abort();
    expect(resultText(await pending)).toContain('patient_wait was cancelled');
    for (let i = 0; i < 100 && !existsSync(log); i++) await new Promise((r) => setTimeout(r, 100));
    expect(readFileSync(log, 'utf8')).toBe('cancelled\n');
  });

  it('turns a crash mid-call into an isError naming the server, and the next call starts it again', async () => {
    // The servers of earlier tests may still be exiting (zombies included): only the one this
    // dispatcher started is killed.
    const earlier = new Set(childrenOf(process.pid, 'server-everything'));
    const d = await dispatcher([{ ...everything, name: 'crashy' }]);
    const started = childrenOf(process.pid, 'server-everything').filter((p) => !earlier.has(p) && isAlive(p));
    expect(started).toHaveLength(1);
    const pending = d.call('crashy_trigger-long-running-operation', { duration: 20, steps: 2 });
    await new Promise((r) => setTimeout(r, 300));
    process.kill(started[0], 'SIGKILL');
    const crashed = await pending;
    expect(crashed.isError).toBe(true);
    expect(resultText(crashed)).toMatch(
      /MCP server "crashy" crashed during crashy_trigger-long-running-operation \(it was killed by SIGKILL\)/,
    );
    expect(resultText(crashed)).toContain('awf starts it again on the next call');
    expect(resultText(await d.call('crashy_echo', { message: 'back' }))).toBe('Echo: back');
  });

  it('serves server-memory and server-sequential-thinking over stdio', async () => {
    const d = await dispatcher([
      { name: 'memory', command: node, args: [SERVER_MEMORY], env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } },
      { name: 'think', command: node, args: [SERVER_SEQUENTIAL_THINKING] },
    ]);
    expect(d.list().map((t) => t.name)).toEqual(
      expect.arrayContaining(['memory_create_entities', 'memory_read_graph', 'think_sequentialthinking']),
    );
    const created = await d.call('memory_create_entities', {
      entities: [{ name: 'awf', entityType: 'tool', observations: ['proxies MCP servers'] }],
    });
    expect(created.isError).toBeFalsy();
    expect(resultText(await d.call('memory_read_graph', {}))).toContain('proxies MCP servers');
    const thought = await d.call('think_sequentialthinking', {
      thought: 'first',
      thoughtNumber: 1,
      totalThoughts: 1,
      nextThoughtNeeded: false,
    });
    expect(thought.isError).toBeFalsy();
    expect(resultText(thought)).toContain('thoughtNumber');
  });

  it('serves server-everything over Streamable HTTP, and over legacy SSE by falling back', async () => {
    for (const transport of ['streamableHttp', 'sse'] as const) {
      const server = await startEverythingHttp(transport);
      try {
        const d = await dispatcher([
          {
            name: `remote${transport.length}`,
            url: server.url,
            headers: { 'X-Test': 'yes' },
            expose: ['echo', 'get-sum'],
          },
        ]);
        const prefix = `remote${transport.length}_`;
        expect(
          d
            .list()
            .map((t) => t.name)
            .sort(),
        ).toEqual([`${prefix}echo`, `${prefix}get-sum`]);
        expect(resultText(await d.call(`${prefix}echo`, { message: transport }))).toBe(`Echo: ${transport}`);
        await d.close();
      } finally {
        await server.stop();
      }
    }
  });
});
