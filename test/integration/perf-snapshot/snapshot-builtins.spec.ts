import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// ADR 110: a Node built-in that Node does not support in user snapshots holds per-process
// state made in the build process. The snapshot build refuses every such built-in except
// VERIFIED_IN_SNAPSHOT; this spec proves, on the running node, that what awf's dependencies do
// with each of those at build time still works in a process started from a blob, and that
// worker_threads (kept out) really breaks, so the guard's list stays honest on a Node upgrade.
const { VERIFIED_IN_SNAPSHOT } = jest.requireActual<{ VERIFIED_IN_SNAPSHOT: Record<string, string> }>(
  resolve(__dirname, '../../../scripts/bundle-plugins/snapshot-builtins.cjs'),
);

/** Builds a blob from `build` (run while the snapshot is built) and `main` (run in the start); what main prints. */
function fromBlob(build: string, main: string, files: Record<string, string> = {}): { stdout: string; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'awf-snapshot-builtins-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    writeFileSync(
      join(dir, 'entry.js'),
      `${build}\nrequire('node:v8').startupSnapshot.setDeserializeMainFunction(() => {\n${main}\n});\n`,
    );
    const made = spawnSync(
      process.execPath,
      ['--snapshot-blob', join(dir, 'b.blob'), '--build-snapshot', join(dir, 'entry.js')],
      { cwd: dir, encoding: 'utf8' },
    );
    if (made.status !== 0) throw new Error(`snapshot build failed: ${made.stderr}`);
    const run = spawnSync(process.execPath, ['--snapshot-blob', join(dir, 'b.blob'), join(dir, 'x.js')], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 20_000,
    });
    return { stdout: run.stdout, stderr: run.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const WORKER = `require('node:worker_threads').parentPort.postMessage(process.cwd() === require('node:worker_threads').workerData);`;
const START_WORKER = `const { Worker } = require('node:worker_threads');
  const w = new Worker(__dirname + '/w.js', { workerData: process.cwd() });
  w.on('message', (m) => { console.log('worker ok', m); void w.terminate(); });
  w.on('error', (e) => console.log('worker failed:', e.message));`;

describe('Node built-ins loaded while a startup snapshot is built', () => {
  it('lists exactly the built-ins the awf build loads, each with the reason', () => {
    const meta = JSON.parse(readFileSync(resolve(__dirname, '../../../dist/awf-mcp.blob.json'), 'utf8')) as {
      builtinsAtBuild?: string[];
    };
    expect(meta.builtinsAtBuild).toEqual(Object.keys(VERIFIED_IN_SNAPSHOT).sort());
  });

  it('module: createRequire taken at build loads files in the start', () => {
    const { stdout } = fromBlob(
      "const { createRequire } = require('node:module');",
      "console.log(createRequire(__filename)('./dep.js'));",
      { 'dep.js': "module.exports = 'dep loaded';" },
    );
    expect(stdout.trim()).toBe('dep loaded');
  });

  it('async_hooks: an AsyncLocalStorage made at build carries its store across awaits in the start', () => {
    const { stdout } = fromBlob(
      "const als = new (require('node:async_hooks').AsyncLocalStorage)();",
      'als.run({ step: 7 }, async () => { await new Promise((r) => setTimeout(r, 5)); console.log(JSON.stringify(als.getStore())); });',
    );
    expect(stdout.trim()).toBe('{"step":7}');
  });

  it('perf_hooks: performance.now() read at build does not skew the clock of the start', () => {
    const { stdout } = fromBlob(
      "const { performance } = require('node:perf_hooks'); performance.now();",
      'console.log(Math.abs(Date.now() - (performance.timeOrigin + performance.now())) < 1000);',
    );
    expect(stdout.trim()).toBe('true');
  });

  it('worker_threads stays out: loaded at build, a worker started from the blob cannot even read its cwd', () => {
    const broken = fromBlob(
      "const { Worker } = require('node:worker_threads');",
      START_WORKER.replace("const { Worker } = require('node:worker_threads');", ''),
      { 'w.js': WORKER },
    );
    expect(broken.stdout).toContain('worker failed: undefined is not an integer typed array.');
    const lazy = fromBlob('', START_WORKER, { 'w.js': WORKER });
    expect(lazy.stdout.trim()).toBe('worker ok true');
  });
});
