import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, scratchDir } from '../../support/cli';
import { connectMcpServe, type McpSession } from '../../support/mcp-client';
import { memoryOf, openFds } from '../support/proc-stats';
import { childrenOf } from '../support/reliability-plugin';
import { SeededRandom, seedFromEnv } from '../support/seeded-random';

/**
 * Item 4 of the reliability issue: 8 `awf mcp-serve` at once, each taking 2000 mixed calls
 * (Read, Grep, Bash and the kv example plugin's get and set) through the real SDK client.
 * Counts and sizes can be lowered for a quick look: AWF_LOAD_INSTANCES, AWF_LOAD_CALLS.
 */
const INSTANCES = Number(process.env.AWF_LOAD_INSTANCES ?? 8);
const CALLS = Number(process.env.AWF_LOAD_CALLS ?? 2000);
const IN_FLIGHT = 8;
const seed = seedFromEnv('AWF_LOAD_SEED', 'load');
const EXAMPLE_PLUGINS = join(REPO_ROOT, 'examples/plugins');

interface ProcessFigures {
  fdsWarm: number;
  fdsEnd: number;
  fdsLeaked: string[];
  rssWarmKiB: number;
  rssEndKiB: number;
  hwmKiB: number;
}

interface InstanceReport extends ProcessFigures {
  pid: number;
  errors: string[];
  counts: Record<string, number>;
  plugin: ProcessFigures & { pid: number };
}

/** What /proc says about one process now; `compare` against the warm-up snapshot. */
function snapshot(pid: number): { fds: string[]; rssKiB: number; hwmKiB: number } {
  const { rssKiB, hwmKiB } = memoryOf(pid)!;
  return { fds: openFds(pid), rssKiB, hwmKiB };
}

function compare(warm: ReturnType<typeof snapshot>, end: ReturnType<typeof snapshot>): ProcessFigures {
  return {
    fdsWarm: warm.fds.length,
    fdsEnd: end.fds.length,
    fdsLeaked: end.fds.filter((fd) => !warm.fds.includes(fd)),
    rssWarmKiB: warm.rssKiB,
    rssEndKiB: end.rssKiB,
    hwmKiB: end.hwmKiB,
  };
}

function project(dir: string): void {
  mkdirSync(join(dir, 'src/nested'), { recursive: true });
  for (let i = 0; i < 40; i++) {
    writeFileSync(
      join(dir, `src/file-${i}.ts`),
      Array.from({ length: 200 }, (_, l) => `export const value${l} = ${i * 1000 + l}; // needle-${l % 17}`).join(
        '\n',
      ) + '\n',
    );
  }
  writeFileSync(join(dir, 'src/nested/deep.txt'), 'needle-deep\n'.repeat(50));
}

async function drive(index: number, root: string): Promise<InstanceReport> {
  const rng = new SeededRandom((seed + index) >>> 0);
  const session: McpSession = await connectMcpServe(
    root,
    { root_dir: root, plugin_tools: [{ plugin: 'kv', expose: ['get', 'set'] }] },
    {
      env: {
        AWF_LOG_LEVEL: 'warn',
        AWF_PLUGINS_PATH: EXAMPLE_PLUGINS,
        XDG_DATA_HOME: join(root, 'xdg'),
        AWF_KV_FILE: join(root, 'kv.json'),
        AWF_PLUGIN_HANDSHAKE_TIMEOUT_MS: '60000',
      },
    },
  );
  const pid = session.transport.pid!;
  const pluginPid = childrenOf(pid).find((p) => p.cmdline.includes('plugin.js'))!.pid;
  await session.client.callTool({ name: 'kv_set', arguments: { key: 'anchor', value: `instance-${index}` } });
  const errors: string[] = [];
  const counts: Record<string, number> = { Read: 0, Grep: 0, Bash: 0, kv_get: 0, kv_set: 0 };
  const call = async (): Promise<void> => {
    const roll = rng.next();
    const key = `k-${rng.int(0, 49)}`;
    const [name, args, expected] =
      roll < 0.4
        ? [
            'Read',
            { file_path: join(root, `src/file-${rng.int(0, 39)}.ts`), offset: rng.int(1, 150), limit: 20 },
            /export const value/,
          ]
        : roll < 0.7
          ? [
              'Grep',
              {
                pattern: `needle-${rng.int(0, 16)}\\b`,
                path: join(root, 'src'),
                output_mode: rng.pick(['files_with_matches', 'count', 'content']),
                head_limit: 50,
              },
              /file-|\d/,
            ]
          : roll < 0.85
            ? ['Bash', { command: `echo load-${index} && ls src | wc -l` }, /load-\d+\s+41/]
            : roll < 0.925
              ? ['kv_get', { key: 'anchor' }, new RegExp(`"value":"instance-${index}"`)]
              : ['kv_set', { key, value: `v-${index}-${rng.int(0, 1e6)}` }, new RegExp(`"key":"${key}"`)];
    counts[name as string]++;
    try {
      const result = await session.client.callTool({ name: name as string, arguments: args }, undefined, {
        timeout: 120_000,
      });
      const text = (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
      if (result.isError) errors.push(`${name} ${JSON.stringify(args)}: isError ${text.slice(0, 200)}`);
      else if (!(expected as RegExp).test(text))
        errors.push(`${name} ${JSON.stringify(args)}: unexpected ${text.slice(0, 200)}`);
    } catch (err) {
      errors.push(`${name}: ${(err as Error).message}`);
    }
  };
  const run = async (n: number): Promise<void> => {
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next++ < n) await call();
      }),
    );
  };
  try {
    // The JS Grep keeps up to 4 workers (each with an event loop of its own: two pipe descriptors
    // among them) and reuses them: a burst fills the pool first, so the warm-up holds all of them.
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, () =>
        session.client.callTool({ name: 'Grep', arguments: { pattern: 'needle-deep', path: join(root, 'src') } }),
      ),
    );
    await run(Math.min(100, CALLS));
    const warm = { serve: snapshot(pid), plugin: snapshot(pluginPid) };
    await run(CALLS - Math.min(100, CALLS));
    const end = { serve: snapshot(pid), plugin: snapshot(pluginPid) };
    return {
      pid,
      errors,
      counts,
      ...compare(warm.serve, end.serve),
      plugin: { pid: pluginPid, ...compare(warm.plugin, end.plugin) },
    };
  } finally {
    await session.close();
  }
}

describe(`${INSTANCES} awf mcp-serve instances under load, ${CALLS} mixed calls each (seed ${seed})`, () => {
  const roots = Array.from({ length: INSTANCES }, () => scratchDir());
  let reports: InstanceReport[];

  beforeAll(async () => {
    roots.forEach((r) => project(r.dir));
    const started = Date.now();
    reports = await Promise.all(roots.map((r, i) => drive(i, r.dir)));
    const mib = (k: number): string => (k / 1024).toFixed(1);
    for (const r of reports) {
      process.stderr.write(
        `[load] pid ${r.pid}: ${JSON.stringify(r.counts)}, ${r.errors.length} errors, fds ${r.fdsWarm} -> ${r.fdsEnd}, RSS ${mib(r.rssWarmKiB)} -> ${mib(r.rssEndKiB)} MiB, VmHWM ${mib(r.hwmKiB)} MiB\n` +
          `[load]   kv plugin pid ${r.plugin.pid}: fds ${r.plugin.fdsWarm} -> ${r.plugin.fdsEnd}, RSS ${mib(r.plugin.rssWarmKiB)} -> ${mib(r.plugin.rssEndKiB)} MiB, VmHWM ${mib(r.plugin.hwmKiB)} MiB\n` +
          r.errors
            .slice(0, 3)
            .map((e) => `[load]   ${e}\n`)
            .join(''),
      );
    }
    process.stderr.write(`[load] ${INSTANCES * CALLS} calls in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }, 1_500_000);
  afterAll(() => roots.forEach((r) => r.cleanup()));

  it('answers every call without an error', () => {
    expect(reports.flatMap((r) => r.errors).slice(0, 20)).toEqual([]);
    expect(reports.every((r) => Object.values(r.counts).every((n) => n > 0))).toBe(true);
  });

  it('keeps the same open file descriptors from warm-up to the end, in mcp-serve and in the plugin', () => {
    for (const r of [...reports, ...reports.map((p) => p.plugin)]) {
      expect(r.fdsLeaked).toEqual([]);
      expect(r.fdsEnd).toBeLessThanOrEqual(r.fdsWarm);
    }
  });

  it('keeps memory bounded: RSS grows less than 64 MiB after warm-up, peak under 400 MiB (mcp-serve) and 200 MiB (plugin)', () => {
    for (const r of reports) {
      expect(r.rssEndKiB - r.rssWarmKiB).toBeLessThan(64 * 1024);
      expect(r.hwmKiB).toBeLessThan(400 * 1024);
      expect(r.plugin.rssEndKiB - r.plugin.rssWarmKiB).toBeLessThan(64 * 1024);
      expect(r.plugin.hwmKiB).toBeLessThan(200 * 1024);
    }
  });
});
