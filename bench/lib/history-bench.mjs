// Run history: `awf history -f json` once 200 runs are in history.db (each made by a real
// `awf run`, four at a time, so concurrent writers are part of the set-up), against
// `awf --version` (the CLI's own start) on the same machine.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { median, processMs } from './mcp-measure.mjs';

const RUNS = 200;
const PARALLEL = 4;

export async function historyBench({ main, work, notes, rounds = 5 }) {
  const dir = join(work, 'history');
  mkdirSync(dir, { recursive: true });
  const env = { ...process.env, AWF_LOG_LEVEL: 'warn', AWF_STORAGE: join(dir, 'store') };
  const file = join(dir, 'wf.yaml');
  writeFileSync(
    file,
    JSON.stringify({
      name: 'bench-history',
      states: { initial: 'a', a: { type: 'step', command: 'echo hi', on_success: 'done' }, done: { type: 'terminal' } },
    }),
  );
  const started = Date.now();
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < RUNS) {
      next++;
      const code = await new Promise((res) =>
        spawn(process.execPath, [main, 'run', file, '-q'], { cwd: dir, env, stdio: 'ignore' }).on('exit', res),
      );
      if (code !== 0) failed++;
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  const fillMs = Date.now() - started;
  if (failed > 0) {
    notes.push(`history: ${failed} of ${RUNS} runs failed; row skipped.`);
    return null;
  }
  const times = { all: [], recent: [], version: [] };
  for (let i = 0; i <= rounds; i++) {
    const all = await processMs(process.execPath, [main, 'history', '-f', 'json', '--limit', String(RUNS)], {
      cwd: dir,
      env,
    });
    const recent = await processMs(process.execPath, [main, 'history', '-f', 'json'], { cwd: dir, env });
    const version = await processMs(process.execPath, [main, '--version'], { cwd: dir, env });
    if (all.code !== 0 || JSON.parse(all.out).runs.length !== RUNS) {
      notes.push('history: `awf history -f json` did not list every run; row skipped.');
      return null;
    }
    if (i === 0) continue; // the first round warms the page cache
    times.all.push(all.ms);
    times.recent.push(recent.ms);
    times.version.push(version.ms);
  }
  return {
    runs: RUNS,
    parallel: PARALLEL,
    fillMsPerRun: fillMs / RUNS,
    allMs: median(times.all),
    recentMs: median(times.recent),
    versionMs: median(times.version),
  };
}
