#!/usr/bin/env node
// `npm run bench`: awf mcp-serve against the reference MCP filesystem server, a bare SDK
// server and `node -e 0`, in one run, on the same files, as a stdio MCP client sees them.
// Prints one table with the ratios the targets are stated in and writes bench/results/latest.json.
// Not a test: nothing here asserts; the numbers are for people (see docs/performance.md).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import events from 'node:events';
import { createRequire } from 'node:module';
import { connect, interleavedLoad, median, processMs } from './lib/mcp-measure.mjs';
import { searchBench } from './lib/search-bench.mjs';
import { stepOverheadBench } from './lib/step-bench.mjs';
import { historyBench } from './lib/history-bench.mjs';
import { upstreamBench } from './lib/upstream-bench.mjs';
import { deadCollectorBench } from './lib/telemetry-bench.mjs';
import { startOtlpSink } from './lib/otlp-sink.mjs';
import { sandboxBench } from './lib/sandbox-bench.mjs';
import { printReport } from './lib/report.mjs';
import { cliStartBench } from './lib/cli-start-bench.mjs';
import { serveBench } from './lib/serve-bench.mjs';
import { checksBench } from './lib/checks-bench.mjs';
import { sharedHistoryBench } from './lib/shared-history-bench.mjs';
import { queueBench } from './lib/queue-bench.mjs';
import { mcpHttpBench } from './lib/mcp-http-bench.mjs';

// 1000 requests in flight make the client's stdin wait for drain 1000 times: expected here.
events.defaultMaxListeners = 0;
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  return hit ? Number(hit.split('=')[1]) : fallback;
};
const COLD_ROUNDS = arg('cold', 10);
const LOAD_ROUNDS = arg('rounds', 3);
const CALLS = arg('calls', 1000);
const SEARCH_ROUNDS = arg('search', 5);
// --before=<dist/main.js of another build>: adds that build as a row (the before/after table).
const BEFORE = process.argv.find((a) => a.startsWith('--before='))?.split('=')[1];
const ONLY = process.argv
  .find((a) => a.startsWith('--only='))
  ?.split('=')[1]
  ?.split(',');
// --skip=start,search,steps,load,sandbox,serve,queue,mcp-http,shared-history,checks: leave out
// parts of the run (while iterating on one figure).
const SKIP = new Set(
  process.argv
    .find((a) => a.startsWith('--skip='))
    ?.split('=')[1]
    ?.split(',') ?? [],
);

const MAIN = join(REPO, 'dist', 'main.js');
if (!existsSync(MAIN)) {
  console.error('dist/main.js is missing: run `npm run build` first (npm run bench does).');
  process.exit(1);
}
// awf rows start mcp-serve the way `awf run` injects it into the agent's MCP config: the build's
// own selfCommand(), `node [its V8 flags] dist/main.js mcp-serve --config=…` (ADR 240).
const selfCommand = (main, args) => {
  const dist = dirname(resolve(main));
  const { selfCommand: make } = createRequire(import.meta.url)(join(dist, 'infrastructure/core/self-command.js'));
  return make(args, dist);
};

const work = mkdtempSync(join(tmpdir(), 'awf-bench-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const fixture = writeFixture(work);
const notes = [];

// awf reads the file with its built-in Read, in a project without extensions, like the other
// servers. A build without Read (an old --before build) uses the echo tool of the test extension
// instead (same payload size), started in a project that loads it; the JSON and table say so.
let awfProject = fixture.dir;
const probe = awfServer('awf mcp-serve', { events: false });
const awfTool = await pickAwfTool(probe);
awfProject = probe.cwd;

const servers = [
  {
    id: 'bare',
    label: 'bare SDK server, one Read',
    ...nodeServer([join(REPO, 'bench', 'bare-read-server.mjs'), fixture.dir]),
    tool: { name: 'Read', args: { file_path: fixture.file } },
  },
  {
    id: 'fs',
    label: 'server-filesystem 2026.8.31',
    ...nodeServer([resolvePackage('@modelcontextprotocol/server-filesystem/dist/index.js'), fixture.dir]),
    tool: { name: 'read_text_file', args: { path: fixture.file } },
  },
  { ...awfServer('awf mcp-serve (logging + audit on)', { events: true }), id: 'awf', tool: awfTool },
];
if (BEFORE) {
  const before = awfServer('awf mcp-serve before (--before build)', { events: true, main: resolve(BEFORE) });
  servers.push({ ...before, id: 'awf-before', tool: await pickAwfTool(before) });
}
if (process.env.NODE_EXTRA_CA_CERTS) {
  notes.push(
    `NODE_EXTRA_CA_CERTS is set here (${process.env.NODE_EXTRA_CA_CERTS}): every Node process parses it as it starts, every server in the table and node -e 0 included.`,
  );
}
const spansFile = join(work, 'spans.jsonl');
servers.push({
  ...awfServer('awf mcp-serve, tracing on (file exporter)', {
    events: true,
    telemetry: { exporter: 'file', file: spansFile },
  }),
  id: 'awf-trace',
  tool: awfTool,
});
// Metrics on (tracing off), exported over OTLP/HTTP to a sink in this process that answers 200.
const sink = await startOtlpSink();
servers.push({
  ...awfServer('awf mcp-serve, metrics on (OTLP)', {
    events: true,
    telemetry: { exporter: 'none', metrics: { exporter: 'otlp', endpoint: `${sink.url}/v1/metrics` } },
  }),
  id: 'awf-metrics',
  tool: awfTool,
});
// A realistic two-layer policy (docs/policy.md): the row to hold within 5% of the plain awf row.
const POLICY = {
  layers: [
    {
      origin: '.awf/config.yaml',
      tools: { deny: ['Bash'] },
      paths: { deny: ['.env', '**/*.pem', '.git/**'] },
      bash: { allow: ['npm test', 'npm run *'], deny: ['curl *'] },
      budgets: { calls: 1e9, write_bytes: 5 * 1024 * 1024 },
    },
    {
      origin: 'step read',
      tools: { allow: ['Read', 'Grep', 'Glob', 'Edit', 'echo', 'kv_*'] },
      paths: { read: ['**'], write: ['src/**'] },
      approve: ['Write'],
    },
  ],
};
servers.push({
  ...awfServer('awf mcp-serve, policy on (logging + audit on)', { events: true, policy: POLICY }),
  id: 'awf-policy',
  tool: awfTool,
});
const selected = ONLY ? servers.filter((s) => ONLY.includes(s.id)) : servers;

const meta = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model,
  loadavgStart: loadavg().map((x) => +x.toFixed(2)),
  coldRounds: COLD_ROUNDS,
  loadRounds: LOAD_ROUNDS,
  calls: CALLS,
  awfTool: awfTool.name,
  awfLaunch: `node ${selfCommand(MAIN, ['mcp-serve']).args.join(' ')}`,
  fixtureBytes: statSync(fixture.file).size,
};
console.error(
  `bench: node ${meta.node}, ${meta.cpus} cpus, load ${meta.loadavgStart.join(' ')}; awf tool ${awfTool.name}`,
);

// Cold start: spawn → initialize answered. Servers alternate, the order rotating each round,
// so a burst of load from another process spreads over all of them. Round 0 warms caches.
const cold = Object.fromEntries([...selected.map((s) => s.id), 'floor'].map((id) => [id, []]));
for (let round = 0; round <= COLD_ROUNDS; round++) {
  const order = rotate([...selected, { id: 'floor' }], round);
  for (const s of order) {
    let ms;
    if (s.id === 'floor') ms = (await processMs(process.execPath, ['-e', '0'])).ms;
    else {
      const session = await connect(s);
      ms = session.initializeMs;
      await session.close();
    }
    if (round > 0) cold[s.id].push(ms);
  }
  process.stderr.write(`\rcold start: round ${round}/${COLD_ROUNDS}`);
}
process.stderr.write('\n');

const load = Object.fromEntries(selected.map((s) => [s.id, []]));
for (let round = 0; round < (SKIP.has('load') ? 0 : LOAD_ROUNDS); round++) {
  const got = await interleavedLoad(rotate(selected, round), { calls: CALLS });
  for (const s of selected) load[s.id].push(got[s.id]);
  process.stderr.write(`\rcalls: round ${round + 1}/${LOAD_ROUNDS}`);
}
process.stderr.write('\n');

const floorRss =
  Number(
    (await processMs(process.execPath, ['-e', 'process.stdout.write(String(process.resourceUsage().maxRSS))'])).out,
  ) / 1024;
const rows = [{ id: 'floor', label: 'node -e 0 (whole process)', coldMs: median(cold.floor), rssMb: floorRss }];
for (const s of selected) {
  const runs = load[s.id];
  const pick = (k) => median(runs.map((r) => r[k]).filter((v) => v !== undefined));
  rows.push({
    id: s.id,
    label: s.label,
    tool: s.tool.name,
    coldMs: median(cold[s.id]),
    coldMin: Math.min(...cold[s.id]),
    listMs: pick('listMs'),
    p50: pick('p50'),
    p99: pick('p99'),
    callsPerSec: pick('callsPerSec'),
    concurrentCallsPerSec: pick('concurrentCallsPerSec'),
    rssMb: pick('rssMb'),
    blockMs: runs.flatMap((r) => r.blockMs ?? []),
  });
}
// Only calls write spans and audit lines: a cold-start-only run (--skip=load) has nothing to check.
if (!SKIP.has('load') && selected.some((s) => s.id === 'awf-trace')) {
  const spans = existsSync(spansFile) ? readFileSync(spansFile, 'utf8').trim().split('\n').filter(Boolean).length : 0;
  if (spans === 0)
    notes.push(
      'tracing row: this build wrote no spans with the file exporter (tracing not implemented yet), so it measures tracing-off code paths only.',
    );
  else meta.spansWritten = spans;
}
const eventsFile = fixture.events;
if (!SKIP.has('load') && (!existsSync(eventsFile) || readFileSync(eventsFile, 'utf8').trim() === ''))
  notes.push(
    'audit: this build wrote no audit events to events_path yet, so "logging and audit on" covers logging only.',
  );

const cliStart = SKIP.has('start') ? null : await cliStartBench({ main: MAIN, work, notes });
const search = SKIP.has('search') ? null : await searchBench({ awfServer, rounds: SEARCH_ROUNDS, repo: REPO, notes });
const steps = SKIP.has('steps') ? null : await stepOverheadBench({ main: MAIN, work, notes });
const history = SKIP.has('history') ? null : await historyBench({ main: MAIN, work, notes });
const sharedHistory = SKIP.has('shared-history') ? null : await sharedHistoryBench({ main: MAIN, work, notes });
const collector = SKIP.has('collector') ? null : await deadCollectorBench({ main: MAIN, work, notes });
const serve = SKIP.has('serve') ? null : await serveBench({ main: MAIN, work, notes });
const checks = SKIP.has('checks') ? null : await checksBench({ main: MAIN });
const queue = SKIP.has('queue') ? null : await queueBench({ main: MAIN, work, notes });
const mcpHttp = SKIP.has('mcp-http')
  ? null
  : await mcpHttpBench({ main: MAIN, work, stdioServer: (root) => awfServer('awf mcp-serve', { root }) });
await sink.close();
const upstreams = SKIP.has('upstreams') ? null : await upstreamBench({ main: MAIN, work, cwd: fixture.dir, notes });
const sandbox = SKIP.has('sandbox')
  ? null
  : await sandboxBench({
      awfServer,
      fsServer: (root) => ({
        label: 'server-filesystem',
        ...nodeServer([resolvePackage('@modelcontextprotocol/server-filesystem/dist/index.js'), root]),
        cwd: root,
      }),
      before: BEFORE ? (root) => awfServer('awf before', { events: false, root, main: resolve(BEFORE) }) : undefined,
      work,
      notes,
    });

meta.loadavgEnd = loadavg().map((x) => +x.toFixed(2));
const report = {
  meta,
  rows,
  cliStart,
  search,
  steps,
  history,
  sharedHistory,
  upstreams,
  sandbox,
  collector,
  serve,
  queue,
  mcpHttp,
  checks,
  notes,
};
const outDir = join(REPO, 'bench', 'results');
mkdirSync(outDir, { recursive: true });
const { targets, text } = printReport(report);
report.table = text;
report.targets = targets;
writeFileSync(join(outDir, 'latest.json'), JSON.stringify(report, null, 2) + '\n');
console.error(`wrote ${join('bench', 'results', 'latest.json')}`);

function resolvePackage(spec) {
  return fileURLToPath(import.meta.resolve(spec));
}

function nodeServer(args, nodeFlags = []) {
  return { command: process.execPath, args: [...nodeFlags, ...args], cwd: fixture.dir, env: {} };
}

/** An `awf mcp-serve` as `awf run` would inject it: same launcher, a fresh step config. */
function awfServer(label, { events = true, telemetry, root, limits, policy, env, main = MAIN } = {}) {
  const config = {
    version: 1,
    intercept_builtins: true,
    plugin_tools: [],
    workflow: 'bench',
    step: 'read',
    run_id: 'bench',
    root_dir: root ?? fixture.dir,
    ...(events ? { events_path: fixture.events } : {}),
    telemetry: telemetry ?? { exporter: 'none' },
    ...(limits ? { limits } : {}),
    ...(policy ? { policy } : {}), // awf run always writes the block
  };
  const file = join(work, `proxy-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(config), { mode: 0o600 });
  return {
    label,
    command: process.execPath,
    args: selfCommand(main, ['mcp-serve', `--config=${file}`]).args,
    cwd: awfProject,
    env: { AWF_LOG_LEVEL: 'info', ...env },
  };
}

async function pickAwfTool(server) {
  const session = await connect(server);
  const { tools } = await session.client.listTools();
  await session.close();
  const names = tools.map((t) => t.name);
  if (names.includes('Read')) return { name: 'Read', args: { file_path: fixture.file } };
  server.cwd = fixture.echoProject;
  const retry = await connect(server);
  const echo = (await retry.client.listTools()).tools.some((t) => t.name === 'echo');
  await retry.close();
  if (echo) {
    notes.push(
      `${server.label} has no built-in Read: its row calls the test extension's echo tool with the file's text (same payload size), a stand-in for Read, in a project that loads that extension.`,
    );
    return { name: 'echo', args: { text: readFileSync(fixture.file, 'utf8') } };
  }
  throw new Error(`awf serves neither Read nor echo (tools: ${names.join(', ')})`);
}

/**
 * A 2 KB text file in a plain project, and a project whose .awf/config.yaml loads the echo
 * extension (the stand-in).
 */
function writeFixture(dir) {
  const project = join(dir, 'project');
  const echoProject = join(dir, 'echo-project');
  mkdirSync(project, { recursive: true });
  mkdirSync(join(echoProject, '.awf'), { recursive: true });
  const line = (i) => `line ${String(i).padStart(3, '0')}: the quick brown fox jumps over the lazy dog`;
  const text = Array.from({ length: 40 }, (_, i) => line(i + 1)).join('\n');
  writeFileSync(join(project, 'file.txt'), text.slice(0, 2047) + '\n');
  const ext = join(REPO, 'test', 'fixtures', 'extension', 'echo-tools.module.js');
  writeFileSync(join(echoProject, '.awf', 'config.yaml'), `extensions:\n  - ${JSON.stringify(ext)}\n`);
  return { dir: project, echoProject, file: join(project, 'file.txt'), events: join(dir, 'events.jsonl') };
}

function rotate(list, n) {
  const k = n % list.length;
  return [...list.slice(k), ...list.slice(0, k)];
}
