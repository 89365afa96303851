// Rows of `npm run bench` for other MCP servers behind the proxy (docs/upstream-servers.md):
// the p50 of server-everything's `echo` called directly by an SDK client and through
// `awf mcp-serve` (the same client, one more stdio hop), and what a step without upstreams
// loads of the MCP SDK client at its start (nothing, ADR 180).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { connect, median, percentile } from './mcp-measure.mjs';

export async function upstreamBench({ main, work, nodeFlags, cwd, calls = 500, rounds = 3, notes }) {
  const everything = createRequire(import.meta.url)
    .resolve('@modelcontextprotocol/server-everything/package.json')
    .replace(/package\.json$/, 'dist/index.js');
  const direct = {
    label: 'server-everything (direct)',
    command: process.execPath,
    args: [everything, 'stdio'],
    cwd,
    env: {},
  };
  const config = join(work, 'proxy-upstream.json');
  writeFileSync(
    config,
    JSON.stringify({
      version: 1,
      intercept_builtins: false,
      plugin_tools: [],
      root_dir: cwd,
      telemetry: { exporter: 'none' },
      upstreams: [{ name: 'everything', command: process.execPath, args: [everything, 'stdio'], expose: ['echo'] }],
    }),
    { mode: 0o600 },
  );
  const proxied = {
    label: 'server-everything through awf mcp-serve',
    command: process.execPath,
    args: [...nodeFlags, main, 'mcp-serve', `--config=${config}`],
    cwd,
    env: { AWF_LOG_LEVEL: 'info' },
  };
  const sessions = [await connect(direct), await connect(proxied)];
  const names = ['echo', 'everything_echo'];
  const samples = [[], []];
  try {
    for (let round = 0; round < rounds; round++) {
      for (const i of round % 2 ? [1, 0] : [0, 1]) {
        for (let c = 0; c < calls; c++) {
          const t0 = performance.now();
          const result = await sessions[i].client.callTool({ name: names[i], arguments: { message: 'bench' } });
          const ms = performance.now() - t0;
          if (result.isError) throw new Error(`${names[i]} failed: ${JSON.stringify(result.content)}`);
          if (c >= 50) samples[i].push(ms); // the first calls warm the JIT of both sides
        }
      }
    }
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
  }
  const [d, p] = samples.map((xs) => ({ p50: median(xs), p99: percentile(xs, 99) }));
  return {
    calls,
    rounds,
    direct: d,
    proxied: p,
    addedP50Ms: p.p50 - d.p50,
    withoutUpstreams: loadedWithoutUpstreams({ main, nodeFlags, work, cwd, notes }),
  };
}

/** How many modules of the MCP SDK client a step without upstreams has loaded when it has served a call. */
function loadedWithoutUpstreams({ main, nodeFlags, work, cwd, notes }) {
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
  const run = spawnSync(process.execPath, [...nodeFlags, '-r', probe, main, 'mcp-serve', `--config=${config}`], {
    cwd,
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });
  try {
    const loaded = JSON.parse(readFileSync(out, 'utf8'));
    return loaded.filter((f) => f.includes('awf-mcp-client') || f.includes('@modelcontextprotocol/sdk')).length;
  } catch {
    notes.push(`upstreams: the load probe of mcp-serve did not report (exit ${run.status}): ${run.stderr.slice(-300)}`);
    return undefined;
  }
}
