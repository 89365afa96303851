// Runs on a real redis-server (127.0.0.1, a temp dir) through the built CLI: runs per minute with
// 1, 2 and 4 `awf worker` processes on sleep-bound runs; enqueue-to-start with an idle worker
// (BullMQ's own timestamps: added → processedOn); and 1,000 queued runs drained by two workers,
// each checked to have ended in success on BullMQ (nothing lost, nothing failed). Then the same
// runs/min with 1 and 4 workers, and enqueue-to-start, on BullMQ's PostgreSQL backend, side by side.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { percentile } from './mcp-measure.mjs';
import { PG_BIN, startPostgres } from './shared-history-bench.mjs';

const REDIS_SERVER = '/usr/bin/redis-server';
const SLEEP_RUNS = 16;
const LATENCY_RUNS = 20;
const DRAIN_RUNS = 1000;
const SECRET = 'bench-secret-0123456789abcdef';
/** 4 workers ≥ 3.2× one; enqueue-to-start p50 ≤ 50 ms (issue 32). */
export const QUEUE_TARGETS = { scale4: 3.2, startMs: 50 };

export async function queueBench({ main, work, notes }) {
  if (!existsSync(REDIS_SERVER)) {
    notes.push(`queue: ${REDIS_SERVER} is not installed (apt-get install redis-server); rows left out`);
    return null;
  }
  const dir = join(work, 'queue');
  mkdirSync(join(dir, '.awf', 'workflows'), { recursive: true });
  const one = (command) => ({
    name: 'one',
    states: { initial: 'a', a: { type: 'step', command, on_success: 'done' }, done: { type: 'terminal' } },
  });
  writeFileSync(join(dir, '.awf', 'workflows', 'sleep.yaml'), JSON.stringify(one('sleep 1')));
  writeFileSync(join(dir, '.awf', 'workflows', 'echo.yaml'), JSON.stringify(one('true')));
  const redis = await startRedis();
  const env = { ...process.env, AWF_QUEUE_SECRET: SECRET, AWF_LOG_LEVEL: 'warn', AWF_STORAGE: join(dir, 'store') };
  const { Queue } = createRequire(join(dirname(main), '..', 'package.json'))('bullmq');
  const queue = new Queue('awf-runs', { connection: { host: '127.0.0.1', port: redis.port } });
  const cli = { main, dir, env, url: redis.url };
  try {
    const scale = {};
    for (const workers of [1, 2, 4]) scale[workers] = await runsPerMinute(cli, queue, workers);
    const startMs = await enqueueToStart(cli, queue);
    const drain = await drained(cli, queue);
    const postgres = await onPostgres({ main, dir, env, notes });
    return { scale, sleepRuns: SLEEP_RUNS, start: startMs, drain, postgres };
  } finally {
    await queue.close();
    await redis.stop();
  }
}

/** Runs/min with 1 and 4 workers and enqueue-to-start, on BullMQ's PostgreSQL backend. */
async function onPostgres({ main, dir, env, notes }) {
  if (!existsSync(join(PG_BIN, 'pg_ctl'))) {
    notes.push(`queue: ${PG_BIN}/pg_ctl is not installed (apt-get install postgresql); PostgreSQL rows left out`);
    return null;
  }
  const pg = startPostgres();
  const { withBackend, createPostgresBackend } = createRequire(join(dirname(main), '..', 'package.json'))('bullmq');
  const { Queue } = withBackend(createPostgresBackend);
  const queue = new Queue('awf-runs', { connection: { connectionString: pg.url, migrate: true } });
  const cli = { main, dir, env, url: pg.url };
  try {
    const scale = {};
    for (const workers of [1, 4]) scale[workers] = await runsPerMinute(cli, queue, workers);
    return { scale, start: await enqueueToStart(cli, queue) };
  } finally {
    await queue.close();
    pg.stop();
  }
}

export function queueTable(q) {
  const f = (v, d = 0) => (Number.isFinite(v) ? v.toFixed(d) : '—');
  const perMin = (n) => f(q.scale[n].perMin, 1);
  return [
    `| queue on redis-server (built CLI) | figure | reference | target |`,
    '| --- | --- | --- | --- |',
    ...[1, 2, 4].map(
      (n) =>
        `| ${q.sleepRuns} one-step \`sleep 1\` runs, ${n} worker(s): runs/min (first taken to last ended: ${f(q.scale[n].ms)} ms) | ${perMin(n)} | ${n === 1 ? '' : `${f(q.scale[n].perMin / q.scale[1].perMin, 2)}× one worker`} | ${n === 4 ? `≥ ${QUEUE_TARGETS.scale4}×` : ''} |`,
    ),
    `| enqueue to start, idle worker, ${LATENCY_RUNS} runs one at a time: p50 ms (p95 ${f(q.start.p95, 1)}) | ${f(q.start.p50, 1)} | | ≤ ${QUEUE_TARGETS.startMs} ms |`,
    `| ${q.drain.runs} queued runs drained by 2 workers × 8: ms (ended in success / lost or failed) | ${f(q.drain.ms)} | ${q.drain.succeeded} / ${q.drain.runs - q.drain.succeeded} | all, none lost |`,
    ...(q.postgres ? postgresRows(q, f) : []),
  ];
}

/** The PostgreSQL backend's rows, each beside the same figure on redis-server. */
function postgresRows(q, f) {
  const pg = q.postgres;
  return [
    ...[1, 4].map(
      (n) =>
        `| same on PostgreSQL (BullMQ's backend), ${n} worker(s): runs/min | ${f(pg.scale[n].perMin, 1)} | redis-server ${f(q.scale[n].perMin, 1)}${n === 4 ? `; ${f(pg.scale[4].perMin / pg.scale[1].perMin, 2)}× one worker` : ''} | |`,
    ),
    `| same on PostgreSQL, enqueue to start: p50 ms (p95 ${f(pg.start.p95, 1)}) | ${f(pg.start.p50, 1)} | redis-server ${f(q.start.p50, 1)} | |`,
  ];
}

export function queueTargets(q, target) {
  return [
    target(
      `4 workers ≥ ${QUEUE_TARGETS.scale4}× the runs/min of one`,
      q && q.scale[4].perMin / q.scale[1].perMin,
      (x) => x >= QUEUE_TARGETS.scale4,
    ),
    target(
      `enqueue to start p50 ≤ ${QUEUE_TARGETS.startMs} ms (as a ratio of ${QUEUE_TARGETS.startMs} ms)`,
      q && q.start.p50 / QUEUE_TARGETS.startMs,
      (x) => x <= 1,
    ),
    target(
      `${DRAIN_RUNS} queued runs drained, none lost (as the share that succeeded)`,
      q && q.drain.succeeded / q.drain.runs,
      (x) => x === 1,
    ),
  ];
}

/**
 * The runs enqueued by `awf run --detach`, then `workers` workers started; timed on BullMQ's own
 * clock from the first run taken to the last one ended, so a worker's start-up is not counted.
 */
async function runsPerMinute(cli, queue, workers) {
  const ids = [];
  for (let i = 0; i < SLEEP_RUNS; i++) ids.push(enqueue(cli, 'sleep.yaml'));
  const pool = Array.from({ length: workers }, (_, i) => startWorker(cli, `w${workers}-${i}`, 1));
  await allEnded(queue, ids);
  await Promise.all(pool.map(stopWorker));
  const jobs = await Promise.all(ids.map((id) => queue.getJob(id)));
  const ms = Math.max(...jobs.map((j) => j.finishedOn)) - Math.min(...jobs.map((j) => j.processedOn));
  return { ms, perMin: (SLEEP_RUNS / ms) * 60_000 };
}

/** One idle worker; each run enqueued after the last ended; BullMQ's added → processedOn. */
async function enqueueToStart(cli, queue) {
  const worker = startWorker(cli, 'latency', 1);
  await ready(worker);
  const waits = [];
  for (let i = 0; i < LATENCY_RUNS; i++) {
    const id = enqueue(cli, 'echo.yaml');
    await allEnded(queue, [id]);
    const job = await queue.getJob(id);
    waits.push(job.processedOn - job.timestamp);
  }
  await stopWorker(worker);
  waits.sort((a, b) => a - b);
  return { p50: percentile(waits, 50), p95: percentile(waits, 95) };
}

/** One job made by `awf run --detach`, copied under new run ids and signed with awf's own code. */
async function drained(cli, queue) {
  const dist = dirname(cli.main);
  const { openJob, signJob } = createRequire(import.meta.url)(join(dist, 'infrastructure/queue/job-signature.js'));
  const first = await queue.getJob(enqueue(cli, 'echo.yaml'));
  const job = openJob(first.data, SECRET, first.id);
  const ids = [first.id];
  const copies = Array.from({ length: DRAIN_RUNS - 1 }, () => {
    const run_id = randomUUID();
    ids.push(run_id);
    return { name: job.workflow, data: signJob({ ...job, run_id }, SECRET), opts: { jobId: run_id } };
  });
  await queue.addBulk(copies);
  const started = performance.now();
  const pool = [startWorker(cli, 'drain-a', 8), startWorker(cli, 'drain-b', 8)];
  await allEnded(queue, ids, 600_000);
  const ms = performance.now() - started;
  await Promise.all(pool.map(stopWorker));
  let succeeded = 0;
  for (const id of ids) if ((await queue.getJob(id))?.returnvalue === 'success') succeeded++;
  return { runs: ids.length, ms, succeeded };
}

function enqueue(cli, workflow) {
  const r = spawnSync(process.execPath, [cli.main, 'run', workflow, '--queue', cli.url, '--detach'], {
    cwd: cli.dir,
    env: cli.env,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`awf run --queue --detach failed: ${r.stderr}`);
  return r.stdout.trim();
}

function startWorker(cli, name, concurrency) {
  const args = [
    cli.main,
    'worker',
    '--queue',
    cli.url,
    '--concurrency',
    String(concurrency),
    '--workdir',
    join(cli.dir, name),
  ];
  const child = spawn(process.execPath, args, { cwd: cli.dir, env: cli.env, stdio: ['ignore', 'ignore', 'pipe'] });
  child.log = '';
  child.stderr.on('data', (d) => (child.log += d));
  return child;
}

async function ready(worker) {
  while (!worker.log.includes('taking runs')) await new Promise((r) => setTimeout(r, 20));
}

async function stopWorker(worker) {
  if (worker.exitCode !== null) return;
  worker.kill('SIGTERM');
  await new Promise((r) => worker.once('exit', r));
}

async function allEnded(queue, ids, timeoutMs = 300_000) {
  const until = Date.now() + timeoutMs;
  for (let left = [...ids]; left.length;) {
    const states = await Promise.all(left.map((id) => queue.getJobState(id)));
    left = left.filter((_, i) => states[i] !== 'completed' && states[i] !== 'failed');
    if (Date.now() > until) throw new Error(`${left.length} queued runs did not end in ${timeoutMs} ms`);
    if (left.length) await new Promise((r) => setTimeout(r, 25));
  }
}

async function startRedis() {
  const dir = mkdtempSync(join(process.env.TMPDIR ?? '/tmp', 'awf-bench-redis-'));
  const port = await new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = s.address();
      s.close(() => resolve(p));
    });
  });
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
  const child = spawn(REDIS_SERVER, args, { stdio: 'ignore' });
  while (!(await accepts(port))) await new Promise((r) => setTimeout(r, 50));
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function accepts(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
