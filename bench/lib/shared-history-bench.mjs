// The runs-list query (`awf runs`, GET /api/executions: the newest 20 runs with their step
// counts, and the same for one workflow) over 100,000 runs, timed inside the process through the
// built KyselyRunIndex: a shared history in PostgreSQL (a private server started here, on a
// loopback port, as the tests start theirs) side by side with SQLite's history.db.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { median } from './mcp-measure.mjs';

const RUNS = 100_000;
const BATCH = 1_000;
const WORKFLOWS = 50;
export const PG_BIN = process.env.AWF_TEST_PG_BIN ?? '/usr/lib/postgresql/15/bin';
export const SHARED_HISTORY_TARGET_MS = 200;

export async function sharedHistoryBench({ main, work, notes, rounds = 30 }) {
  if (!existsSync(join(PG_BIN, 'pg_ctl'))) {
    notes.push(`shared history: ${PG_BIN}/pg_ctl is not installed (apt-get install postgresql); row skipped.`);
    return null;
  }
  const load = createRequire(import.meta.url);
  const dist = dirname(main);
  const built = {
    ...load(join(dist, 'infrastructure/history/kysely-run.index.js')),
    ...load(join(dist, 'infrastructure/history/history-location.js')),
    ...load(join(dist, 'infrastructure/history/history.connection.js')),
  };
  const dir = join(work, 'shared-history');
  mkdirSync(dir, { recursive: true });
  const pg = startPostgres();
  try {
    const sqlite = await measure(built, built.historyLocation(undefined, { AWF_STORAGE: join(dir, 'store') }), rounds);
    const postgres = await measure(built, built.historyLocation(pg.url), rounds);
    return { runs: RUNS, rounds, sqlite, postgres };
  } finally {
    pg.stop();
  }
}

/** Fills the history (one step per run), then times `list` as `awf runs` and the API call it. */
async function measure({ openHistory, KyselyRunIndex }, location, rounds) {
  const fillStarted = performance.now();
  const { db } = await openHistory(location);
  const base = Date.parse('2026-01-01T00:00:00Z');
  for (let b = 0; b < RUNS; b += BATCH) {
    const runs = Array.from({ length: BATCH }, (_, i) => {
      const at = new Date(base + (b + i) * 1000).toISOString();
      return {
        run_id: randomUUID(),
        workflow: `wf-${(b + i) % WORKFLOWS}`,
        inputs: '{}',
        status: 'success',
        started_at: at,
        finished_at: at,
        duration_ms: 5,
      };
    });
    const steps = runs.map((r) => ({
      run_id: r.run_id,
      seq: 0,
      name: 'a',
      type: 'step',
      status: 'success',
      started_at: r.started_at,
      duration_ms: 4,
      exit_code: 0,
      tool_calls: 0,
      state: '{"Output":"hi"}',
    }));
    await db.transaction().execute(async (tx) => {
      for (let i = 0; i < BATCH; i += 250) {
        await tx
          .insertInto('runs')
          .values(runs.slice(i, i + 250))
          .execute();
        await tx
          .insertInto('steps')
          .values(steps.slice(i, i + 250))
          .execute();
      }
    });
  }
  await db.destroy();
  const fillMs = performance.now() - fillStarted;
  const index = new KyselyRunIndex(
    () => location,
    () => [],
    () => '',
  );
  const times = { newest: [], workflow: [] };
  try {
    for (let i = 0; i <= rounds; i++) {
      let t = performance.now();
      const newest = await index.list({ limit: 20 });
      const newestMs = performance.now() - t;
      t = performance.now();
      const one = await index.list({ limit: 20, workflow: 'wf-7' });
      const workflowMs = performance.now() - t;
      if (newest.length !== 20 || one.length !== 20 || newest[0].steps !== 1) throw new Error('the list is wrong');
      if (i === 0) continue; // the first round opens the history and warms its caches
      times.newest.push(newestMs);
      times.workflow.push(workflowMs);
    }
  } finally {
    await index.close();
  }
  const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1];
  return { fillMs, newestP50: median(times.newest), newestP95: p95(times.newest), workflowP50: median(times.workflow) };
}

/** As test/support/postgres-server.ts: as root, PostgreSQL's commands run as the `postgres` user. */
export function startPostgres() {
  const dir = mkdtempSync(join(process.env.TMPDIR ?? '/tmp', 'awf-bench-pg-'));
  const root = process.getuid?.() === 0;
  const run = (cmd, args) =>
    root
      ? execFileSync(
          'su',
          ['postgres', '-s', '/bin/sh', '-c', [join(PG_BIN, cmd), ...args].map((a) => `'${a}'`).join(' ')],
          { stdio: 'pipe' },
        )
      : execFileSync(join(PG_BIN, cmd), args, { stdio: 'pipe' });
  if (root) execFileSync('chown', ['postgres', dir]);
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const data = join(dir, 'data');
  const stop = () => {
    if (existsSync(join(data, 'postmaster.pid'))) run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'awf', '--no-sync']);
    run('pg_ctl', [
      '-D',
      data,
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
      '-l',
      join(dir, 'log'),
      '-w',
      'start',
    ]);
    run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'awf', 'awf']);
  } catch (err) {
    stop();
    throw err;
  }
  return { url: `postgres://awf@127.0.0.1:${port}/awf`, stop };
}

export function sharedHistoryLine(s) {
  const f = (v, d = 1) => (v === undefined || v === null ? '—' : v.toFixed(d));
  return [
    `| runs list over ${s.runs.toLocaleString('en')} runs (newest 20, step counts), in the process: PostgreSQL p50 (p95 ${f(s.postgres.newestP95)}) | ${f(s.postgres.newestP50)} | SQLite ${f(s.sqlite.newestP50)} ms | ≤ ${SHARED_HISTORY_TARGET_MS} ms |`,
    `| the same, one workflow of ${WORKFLOWS} (\`--workflow\`) | ${f(s.postgres.workflowP50)} | SQLite ${f(s.sqlite.workflowP50)} ms | |`,
  ];
}

export function sharedHistoryTable(s) {
  return ['| shared history | ms | reference | target |', '| --- | --- | --- | --- |', ...sharedHistoryLine(s)];
}

export function sharedHistoryTargets(s, target) {
  const t = SHARED_HISTORY_TARGET_MS;
  return [
    target(
      `runs list over 100,000 runs in PostgreSQL p50 ≤ ${t} ms (as a ratio of ${t} ms)`,
      s && s.postgres.newestP50 / t,
      (x) => x <= 1,
    ),
  ];
}
