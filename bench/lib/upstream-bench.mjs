// Rows of `npm run bench` for other MCP servers behind the proxy (docs/upstream-servers.md):
// the p50 of server-everything's `echo` called by one SDK client directly (the reference),
// through a relay that only forwards bytes (what one more process on the way costs by itself),
// and through `awf mcp-serve` (logging and audit on; then tracing and a policy on too), all
// connected at once and taking turns every few calls; and what a step without upstreams loads
// of the MCP SDK client at its start (nothing, ADR 180). `node bench/upstream.mjs` runs only this.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { connect, median, percentile, turnOrder } from './mcp-measure.mjs';

/** Calls per turn: the sessions take turns this often, so a burst of load lands on each alike. */
const BLOCK = 10;
/** Calls of each session left out before measuring: the JIT of every process on the way warms up. */
const WARMUP = 100;

/**
 * `before`: { main } of another build, measured as one more row in the same turns
 * (the before/after of a change to the hop).
 */
export async function upstreamBench({ main, work, cwd, calls = 500, rounds = 3, notes, before }) {
  const everything = createRequire(import.meta.url)
    .resolve('@modelcontextprotocol/server-everything/package.json')
    .replace(/package\.json$/, 'dist/index.js');
  const server = [everything, 'stdio'];
  const relay = join(dirname(fileURLToPath(import.meta.url)), '..', 'stdio-relay.mjs');
  const node = (label, args, env = {}) => ({ label, command: process.execPath, args, cwd, env });
  // As `awf run` writes a step's config: the step's audit trail and its log line on, tracing off.
  const awf = (id, extra, build = { main }) => {
    const config = join(work, `proxy-upstream-${id}.json`);
    writeFileSync(
      config,
      JSON.stringify({
        version: 1,
        intercept_builtins: false,
        plugin_tools: [],
        workflow: 'bench',
        step: 'upstream',
        run_id: 'bench',
        root_dir: cwd,
        events_path: join(work, `events-upstream-${id}.jsonl`),
        telemetry: { exporter: 'none' },
        upstreams: [{ name: 'everything', command: process.execPath, args: server, expose: ['echo'] }],
        // As awf run names it, never the user's data dir (a build from before pinning has no such key).
        ...(build.main === main ? { pins_dir: join(work, 'mcp-pins') } : {}),
        ...extra,
      }),
      { mode: 0o600 },
    );
    return node(`server-everything through awf mcp-serve (${id})`, [build.main, 'mcp-serve', `--config=${config}`], {
      AWF_LOG_LEVEL: 'info',
    });
  };
  const rows = [
    { id: 'direct', tool: 'echo', server: node('server-everything (direct)', server) },
    { id: 'relay', tool: 'echo', server: node('through a byte relay', [relay, process.execPath, ...server]) },
    { id: 'awf', tool: 'everything_echo', server: awf('awf') },
    {
      id: 'awfFull',
      tool: 'everything_echo',
      server: awf('full', {
        telemetry: { exporter: 'file', file: join(work, 'spans-upstream.jsonl') },
        policy: {
          layers: [{ origin: 'step upstream', tools: { allow: ['everything_*'], deny: ['everything_get-sum'] } }],
        },
      }),
    },
  ];
  if (before) rows.push({ id: 'before', tool: 'everything_echo', server: awf('before', {}, before) });
  const sessions = [];
  try {
    for (const row of rows) sessions.push(await connect(row.server));
    const samples = rows.map(() => []);
    const call = async (i) => {
      const t0 = performance.now();
      const result = await sessions[i].client.callTool({ name: rows[i].tool, arguments: { message: 'bench' } });
      const ms = performance.now() - t0;
      if (result.isError) throw new Error(`${rows[i].tool} failed: ${JSON.stringify(result.content)}`);
      return ms;
    };
    for (let i = 0; i < rows.length; i++) for (let c = 0; c < WARMUP; c++) await call(i);
    // Interleaved: each session makes BLOCK calls in turn, in an order of each turn's own.
    const indices = rows.map((_, i) => i);
    for (let turn = 0; turn < (calls * rounds) / BLOCK; turn++) {
      for (const i of turnOrder(indices, turn)) {
        for (let c = 0; c < BLOCK; c++) samples[i].push(await call(i));
      }
    }
    const stats = Object.fromEntries(
      rows.map((row, i) => [row.id, { p50: median(samples[i]), p99: percentile(samples[i], 99) }]),
    );
    return {
      calls,
      rounds,
      block: BLOCK,
      ...stats,
      proxied: stats.awf,
      addedP50Ms: stats.awf.p50 - stats.direct.p50,
      hopP50Ms: stats.relay.p50 - stats.direct.p50,
      withoutUpstreams: loadedWithoutUpstreams({ main, work, cwd, notes }),
      pinCheck: pinCheckMs(main, work, (await sessions[0].client.listTools()).tools),
    };
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
  }
}

/**
 * p50 of the pin check of one listing of server-everything's tools (ADR 253: one pin file read,
 * each tool's canonical JSON digested and compared), in-process on the build's own module; a
 * call pays none of it (the refusal is decided at listing time). Undefined for a build without it.
 */
function pinCheckMs(main, work, tools, rounds = 200) {
  const file = join(dirname(main), 'infrastructure', 'core', 'tool-pin.store.js');
  let store;
  try {
    store = new (createRequire(import.meta.url)(file).ToolPinStore)(join(work, 'mcp-pins-bench'));
  } catch {
    return undefined;
  }
  store.check('everything', tools); // the first sight pins
  const samples = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    if (store.check('everything', tools).size !== 0) throw new Error('the pin check found a change in the same tools');
    samples.push(performance.now() - t0);
  }
  return { p50: median(samples.slice(rounds / 4)), tools: tools.length };
}

/** How many modules of the MCP SDK client a step without upstreams has loaded when it has served a call. */
function loadedWithoutUpstreams({ main, work, cwd, notes }) {
  const probe = join(work, 'loaded-probe.cjs');
  const out = join(work, 'loaded.json');
  writeFileSync(
    probe,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(Object.keys(require.cache))));\n`,
  );
  const config = join(work, 'proxy-plain.json');
  writeFileSync(
    config,
    JSON.stringify({
      version: 1,
      intercept_builtins: true,
      plugin_tools: [],
      root_dir: cwd,
      telemetry: { exporter: 'none' },
    }),
    { mode: 0o600 },
  );
  const input =
    [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'b', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'Glob', arguments: { pattern: '*' } } },
    ]
      .map((m) => JSON.stringify(m))
      .join('\n') + '\n';
  const run = spawnSync(process.execPath, ['-r', probe, main, 'mcp-serve', `--config=${config}`], {
    cwd,
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });
  try {
    const loaded = JSON.parse(readFileSync(out, 'utf8'));
    return loaded.filter(
      (f) =>
        f.includes('awf-mcp-client') ||
        f.includes('@modelcontextprotocol/client') ||
        f.includes('@modelcontextprotocol/sdk'),
    ).length;
  } catch {
    notes.push(`upstreams: the load probe of mcp-serve did not report (exit ${run.status}): ${run.stderr.slice(-300)}`);
    return undefined;
  }
}
