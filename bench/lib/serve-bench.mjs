// `awf serve` over real sockets on 127.0.0.1: 20 runs started over HTTP at once (against 20
// `awf run` processes started at once, the way without a server), 50 SSE subscribers on one run
// (against one subscriber; every subscriber must get every event), and GET /api/executions with
// 10,000 runs in history.db (filled through the built RunIndex, as `awf run` writes it).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { median, percentile } from './mcp-measure.mjs';
import { call, events } from './serve-client.mjs';

const AT_ONCE = 20;
const SUBSCRIBERS = 50;
const HISTORY_RUNS = 10_000;
const LIST_REQUESTS = 200;
/** Ratios to the reference, or ms: a person watching a dashboard notices ~100 ms, so half of it. */
export const SERVE_TARGETS = { atOnce: 1, spreadMs: 50, listMs: 50 };

export async function serveBench({ main, work, notes, rounds = 3 }) {
  const dir = join(work, 'serve');
  mkdirSync(join(dir, '.awf', 'workflows'), { recursive: true });
  const quick = { name: 'quick', states: { initial: 'a', a: step('echo hi', 'done'), done: { type: 'terminal' } } };
  writeFileSync(join(dir, '.awf', 'workflows', 'quick.yaml'), JSON.stringify(quick));
  const names = Array.from({ length: 10 }, (_, i) => `s${i}`);
  // The first step waits so that every subscriber is connected before the events that are timed.
  const states = Object.fromEntries(names.map((n, i) => [n, step(i ? 'true' : 'sleep 0.5', names[i + 1] ?? 'done')]));
  const tenSteps = { name: 'ten', states: { initial: 's0', ...states, done: { type: 'terminal' } } };
  writeFileSync(join(dir, '.awf', 'workflows', 'ten.yaml'), JSON.stringify(tenSteps));
  const env = { ...process.env, AWF_LOG_LEVEL: 'warn', AWF_STORAGE: join(dir, 'store') };
  delete env.AWF_API_TOKEN;

  const fillStarted = Date.now();
  await fillHistory(main, env.AWF_STORAGE, dir);
  const fillMs = Date.now() - fillStarted;
  const server = await startServe(main, dir, env);
  const agent = new Agent({ keepAlive: true });
  try {
    const list = await listTimes(server.url, agent);
    const atOnce = { http: [], cli: [] };
    const fan = { one: [], many: [], spreadMax: [], spreadP50: [], events: 0 };
    for (let round = 0; round <= rounds; round++) {
      const http = await runsAtOnce(server.url);
      const cli = await cliAtOnce(main, dir, env);
      const one = await fanOut(server.url, 1);
      const many = await fanOut(server.url, SUBSCRIBERS);
      fan.events = many.events;
      if (round === 0) continue; // warms the server, the page cache and the JIT
      atOnce.http.push(http);
      atOnce.cli.push(cli);
      fan.one.push(one.ms);
      fan.many.push(many.ms);
      fan.spreadMax.push(many.spreadMax);
      fan.spreadP50.push(many.spreadP50);
    }
    return {
      rounds,
      fillMs,
      historyRuns: HISTORY_RUNS,
      list,
      atOnce: { runs: AT_ONCE, httpMs: median(atOnce.http), cliMs: median(atOnce.cli) },
      fanOut: {
        subscribers: SUBSCRIBERS,
        events: fan.events,
        oneMs: median(fan.one),
        manyMs: median(fan.many),
        spreadMaxMs: median(fan.spreadMax),
        spreadP50Ms: median(fan.spreadP50),
      },
    };
  } catch (err) {
    notes.push(`serve: ${err.message}; rows skipped.`);
    return null;
  } finally {
    agent.destroy();
    server.child.kill('SIGTERM');
    await server.exit;
  }
}

/** The printed rows of the serve part, each with its figure, its reference and its target. */
export function serveTable(s) {
  const f = (v, d = 0) => (Number.isFinite(v) ? v.toFixed(d) : '—');
  const t = SERVE_TARGETS;
  const { atOnce: a, fanOut: o, list } = s;
  return [
    `| awf serve (${s.rounds} rounds after a warm-up, medians) | ms | reference | target |`,
    '| --- | --- | --- | --- |',
    `| ${a.runs} one-step runs started over HTTP at once, until every stream ended | ${f(a.httpMs)} | ${a.runs} \`awf run\` at once: ${f(a.cliMs)} ms (${f(a.httpMs / a.cliMs, 2)}×) | ≤ ${t.atOnce}× |`,
    `| ${o.subscribers} SSE subscribers on one run, each checked to get all ${o.events} events: an event's first to last delivery, max over the run (p50 ${f(o.spreadP50Ms, 1)}) | ${f(o.spreadMaxMs, 1)} | the whole run ${f(o.manyMs)} ms vs ${f(o.oneMs)} ms with one subscriber | ≤ ${t.spreadMs} ms |`,
    `| GET /api/executions (a page of 50) with ${s.historyRuns} runs in history: p50 (p95 ${f(list.p95, 1)}) | ${f(list.p50, 1)} | | ≤ ${t.listMs} ms |`,
  ];
}

const step = (command, next) => ({ type: 'step', command, on_success: next });

/** 10,000 finished one-step runs, a minute apart, written by the built KyselyRunIndex. */
async function fillHistory(main, storage, cwd) {
  const dist = dirname(main);
  const load = createRequire(import.meta.url);
  const { KyselyRunIndex } = load(join(dist, 'infrastructure/history/kysely-run.index.js'));
  const { historyLocation } = load(join(dist, 'infrastructure/history/history-location.js'));
  const index = new KyselyRunIndex(
    () => historyLocation(undefined, { AWF_STORAGE: storage }),
    () => [],
    (id) => join(storage, 'runs', id),
  );
  const base = Date.now() - HISTORY_RUNS * 60_000;
  const state = { Output: 'hi\n', Stderr: '', ExitCode: 0, Status: 'success' };
  for (let i = 0; i < HISTORY_RUNS; i++) {
    const run_id = randomUUID();
    const started_at = new Date(base + i * 60_000).toISOString();
    await index.begin({
      run_id,
      workflow: 'quick',
      file: join(cwd, '.awf/workflows/quick.yaml'),
      cwd,
      inputs: {},
      started_at,
    });
    const record = { seq: 1, name: 'a', type: 'step', status: 'success', started_at, duration_ms: 4 };
    await index.stepFinished(run_id, { ...record, exit_code: 0, tool_calls: 0, state, next: 'done' });
    await index.finish(run_id, { status: 'success', finished_at: started_at, duration_ms: 6, terminal: 'done' });
  }
  await index.close();
}

async function startServe(main, cwd, env) {
  const child = spawn(process.execPath, [main, 'serve', '--port', '0'], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exit = once(child, 'exit');
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  for (const until = Date.now() + 30_000; !/listening on (\S+)/.test(out);) {
    if (Date.now() > until || child.exitCode !== null) throw new Error(`awf serve did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { url: /listening on (\S+)/.exec(out)[1], child, exit };
}

/** GET /api/executions over one kept-alive connection: 20 to warm up, then the measured ones. */
async function listTimes(url, agent) {
  const times = [];
  for (let i = 0; i < 20 + LIST_REQUESTS; i++) {
    const started = process.hrtime.bigint();
    const r = await call(url, 'GET', '/api/executions', undefined, agent);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (r.status !== 200 || r.json.body.executions.length !== 50 || !r.json.body.next_cursor)
      throw new Error(`GET /api/executions answered ${r.status}, not a full page`);
    if (i >= 20) times.push(ms);
  }
  return { p50: median(times), p95: percentile(times, 95) };
}

async function runsAtOnce(url) {
  const started = Date.now();
  const streams = await Promise.all(
    Array.from({ length: AT_ONCE }, async () => events(url, await start(url, 'quick'))),
  );
  const ms = Date.now() - started;
  if (streams.some((s) => s.events.at(-1)?.kind !== 'workflow.completed'))
    throw new Error('a run started at once failed');
  return ms;
}

async function cliAtOnce(main, cwd, env) {
  const started = Date.now();
  const codes = await Promise.all(
    Array.from({ length: AT_ONCE }, () =>
      once(spawn(process.execPath, [main, 'run', 'quick', '-q'], { cwd, env, stdio: 'ignore' }), 'exit'),
    ),
  );
  const ms = Date.now() - started;
  if (codes.some(([code]) => code !== 0)) throw new Error('an `awf run` started at once failed');
  return ms;
}

/**
 * One run of `ten` with `n` subscribers from its start; each must get every event, in order,
 * once. The spread of an event is from its delivery to the first subscriber to the last, timed
 * for the events that came once all were connected (the first step waits for them).
 */
async function fanOut(url, n) {
  const started = Date.now();
  const id = await start(url, 'ten');
  const got = await Promise.all(Array.from({ length: n }, () => events(url, id)));
  const ms = Date.now() - started;
  const seqs = (g) => g.events.map((e) => `${e.seq} ${e.kind}`).join();
  const first = got[0].events;
  const complete = first.every((e, i) => e.seq === i + 1) && first.at(-1)?.kind === 'workflow.completed';
  if (!complete || got.some((g) => seqs(g) !== seqs(got[0]))) throw new Error(`a subscriber of ${n} missed events`);
  const connected = Math.max(...got.map((g) => g.connectedAt));
  const spreads = first
    .map((_, i) => got.map((g) => g.events[i].at))
    .filter((at) => Math.min(...at) > connected)
    .map((at) => Math.max(...at) - Math.min(...at));
  if (n > 1 && spreads.length < first.length / 2) throw new Error('the subscribers connected too late to be timed');
  return { ms, events: first.length, spreadMax: Math.max(...spreads), spreadP50: median(spreads) };
}

async function start(url, workflow) {
  const r = await call(url, 'POST', `/api/workflows/local/${workflow}/run`, { inputs: {} });
  if (r.status !== 202) throw new Error(`POST …/${workflow}/run answered ${r.status}: ${r.text}`);
  return r.json.body.execution_id;
}
