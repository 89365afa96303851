#!/usr/bin/env node
// Only the "other MCP servers" table of `npm run bench` (bench/lib/upstream-bench.mjs), against the
// current dist/ (build first): `node bench/upstream.mjs [--calls=500] [--rounds=3] [--before=<main.js>]`. For iterating
// on the upstream hop; prints the table and writes bench/results/upstream.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { upstreamTable } from './lib/report.mjs';
import { upstreamBench } from './lib/upstream-bench.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
// --before=<dist/main.js of another build>: one more row, that build's awf, in the same turns.
const BEFORE = process.argv.find((a) => a.startsWith('--before='))?.split('=')[1];
const before = BEFORE && { main: resolve(BEFORE) };
const work = mkdtempSync(join(tmpdir(), 'awf-bench-upstream-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const notes = [];
const start = loadavg().map((x) => x.toFixed(2));
const upstreams = await upstreamBench({
  main: join(REPO, 'dist', 'main.js'),
  work,
  cwd: work,
  calls: arg('calls', 500),
  rounds: arg('rounds', 3),
  notes,
  before,
});
const head = `awf upstream bench ${new Date().toISOString()} · node ${process.version} · ${cpus().length} cpus · load ${start.join('/')} → ${loadavg()
  .map((x) => x.toFixed(2))
  .join('/')}`;
const text = [head, '', ...upstreamTable(upstreams), ...notes.map((n) => `note: ${n}`)].join('\n');
process.stdout.write(`${text}\n`);
mkdirSync(join(REPO, 'bench', 'results'), { recursive: true });
writeFileSync(
  join(REPO, 'bench', 'results', 'upstream.json'),
  `${JSON.stringify({ upstreams, table: text }, null, 2)}\n`,
);
