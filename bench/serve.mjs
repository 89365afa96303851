#!/usr/bin/env node
// Only the `awf serve` rows of `npm run bench` (bench/lib/serve-bench.mjs), against the current
// dist/ (build first): `node bench/serve.mjs [--rounds=3]`. Prints the rows with their targets
// and writes bench/results/serve.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveBench, serveTable } from './lib/serve-bench.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const rounds = Number(process.argv.find((a) => a.startsWith('--rounds='))?.split('=')[1] ?? 3);
const work = mkdtempSync(join(tmpdir(), 'awf-bench-serve-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const notes = [];
const start = loadavg().map((x) => x.toFixed(2));
const serve = await serveBench({ main: join(REPO, 'dist', 'main.js'), work, notes, rounds });
const head = `awf serve bench ${new Date().toISOString()} · node ${process.version} · ${cpus().length} cpus · load ${start.join('/')} → ${loadavg()
  .map((x) => x.toFixed(2))
  .join('/')}`;
const text = [head, '', ...(serve ? serveTable(serve) : []), ...notes.map((n) => `note: ${n}`)].join('\n');
process.stdout.write(`${text}\n`);
mkdirSync(join(REPO, 'bench', 'results'), { recursive: true });
writeFileSync(join(REPO, 'bench', 'results', 'serve.json'), `${JSON.stringify({ serve, table: text }, null, 2)}\n`);
