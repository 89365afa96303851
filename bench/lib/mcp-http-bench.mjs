// `awf serve`'s /mcp against the stdio proxy a step gets (`awf mcp-serve`): the same Read of a
// 2 KB file through the official SDK Client, over Streamable HTTP on 127.0.0.1 — a 2025-11-25
// client in its session (one server kept for it) and a 2026-07-28 one (stateless: a server per
// request) — and over stdio, all connected at once and taking turns in blocks of 50 calls, so
// load from elsewhere on this shared machine lands on all alike.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as Client2026, StreamableHTTPClientTransport as Transport2026 } from '@modelcontextprotocol/client';
import { connect, percentile } from './mcp-measure.mjs';

const CALLS = 1000;
const BLOCK = 50;

export async function mcpHttpBench({ main, stdioServer, work }) {
  const dir = join(work, 'mcp-http');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'read-me.txt');
  writeFileSync(file, `${'x'.repeat(63)}\n`.repeat(32));
  const env = { ...process.env, AWF_LOG_LEVEL: 'warn', AWF_STORAGE: join(dir, 'store') };
  delete env.AWF_API_TOKEN;
  const serve = spawn(process.execPath, [main, 'serve', '--port', '0'], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  serve.stdout.on('data', (c) => (out += c));
  serve.stderr.on('data', (c) => (out += c));
  try {
    for (const until = Date.now() + 30_000; !/MCP endpoint (\S+)/.test(out);) {
      if (Date.now() > until || serve.exitCode !== null) throw new Error(`awf serve did not start: ${out}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const url = new URL(/MCP endpoint (\S+)/.exec(out)[1]);
    const http = new Client({ name: 'awf-bench', version: '1.0.0' });
    await http.connect(new StreamableHTTPClientTransport(url));
    const stateless = new Client2026({ name: 'awf-bench', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    const transport2026 = new Transport2026(url);
    await stateless.connect(transport2026);
    if (transport2026.protocolVersion !== '2026-07-28') throw new Error('the 2026-07-28 client spoke an older version');
    const stdio = await connect(stdioServer(dir));
    const sides = [
      { id: 'http', client: http, lat: [], ms: 0 },
      { id: 'stateless', client: stateless, lat: [], ms: 0 },
      { id: 'stdio', client: stdio.client, lat: [], ms: 0 },
    ];
    const read = (s) => s.client.callTool({ name: 'Read', arguments: { file_path: file } });
    for (const s of sides) {
      const first = await read(s);
      if (first.isError) throw new Error(`${s.id}: Read failed: ${JSON.stringify(first.content)}`);
      for (let i = 0; i < 100; i++) await read(s);
    }
    for (let done = 0, turn = 0; done < CALLS; done += BLOCK, turn++) {
      for (const s of turn % 2 ? [...sides].reverse() : sides) {
        const t0 = performance.now();
        for (let i = 0; i < BLOCK; i++) {
          const t = performance.now();
          await read(s);
          s.lat.push(performance.now() - t);
        }
        s.ms += performance.now() - t0;
      }
    }
    await http.close();
    await stateless.close();
    await stdio.close();
    const figures = (s) => ({
      p50: percentile(s.lat, 50),
      p99: percentile(s.lat, 99),
      callsPerSec: (CALLS / s.ms) * 1000,
    });
    return { calls: CALLS, http: figures(sides[0]), stateless: figures(sides[1]), stdio: figures(sides[2]) };
  } finally {
    serve.kill('SIGTERM');
    if (serve.exitCode === null) await once(serve, 'exit');
  }
}

export function mcpHttpTable(m) {
  const f = (v, d = 2) => (Number.isFinite(v) ? v.toFixed(d) : '—');
  const row = (label, x) =>
    `| ${label} | ${f(x.callsPerSec, 0)} | ${f(x.callsPerSec / m.stdio.callsPerSec)}× | ${f(x.p50)} | ${f(x.p99)} |`;
  return [
    `| Read of a 2 KB file, SDK client, ${m.calls} calls each, turns of ${BLOCK} | calls/s | × stdio | p50 ms | p99 ms |`,
    '| --- | --- | --- | --- | --- |',
    row("`awf serve`'s /mcp, Streamable HTTP on 127.0.0.1, a 2025-11-25 client in its session", m.http),
    ...(m.stateless
      ? [row("`awf serve`'s /mcp, a 2026-07-28 client (stateless: a server per request)", m.stateless)]
      : []),
    row('`awf mcp-serve` over stdio, as a step gets it', m.stdio),
  ];
}
