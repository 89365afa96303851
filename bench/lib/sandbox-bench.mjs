// Rows of `npm run bench` for the sandbox (issue 21, ADR 130 and 131): the p50 of one Bash call
// unconfined (its own PID namespace when `unshare` works) and under bubblewrap
// (limits.bash_sandbox), and of Read, Glob and Grep on a path four directories deep, where the
// race-free walk opens one descriptor per level: awf against server-filesystem's read_text_file
// and search_files, and against the build before the walk when --before names one.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { connect, median } from './mcp-measure.mjs';

const VENDORED = join('node_modules', '@openai', 'codex-linux-x64', 'vendor', 'x86_64-unknown-linux-musl');

/** A bwrap to measure with, as the tests find one: AWF_BWRAP, bwrap on PATH, the pinned codex package's. */
export function findBwrap() {
  if (process.env.AWF_BWRAP) return process.env.AWF_BWRAP;
  for (const dir of (process.env.PATH ?? '').split(':'))
    if (dir && existsSync(join(dir, 'bwrap'))) return join(dir, 'bwrap');
  const cache = join(homedir(), '.cache', 'awf-agent-clis');
  for (const hash of existsSync(cache) ? readdirSync(cache) : []) {
    const shipped = join(cache, hash, VENDORED, 'codex-resources', 'bwrap');
    if (existsSync(shipped)) return shipped;
  }
  return undefined;
}

/**
 * p50 of each session's call, interleaved in blocks of 20 calls (the order alternating) so that a
 * burst of load from another process spreads over all of them; the first block warms the JIT.
 */
async function interleavedP50(entries, calls) {
  const samples = entries.map(() => []);
  for (let block = 0; block <= Math.ceil(calls / 20); block++) {
    const order = entries.map((_, i) => i);
    if (block % 2) order.reverse();
    for (const i of order) {
      const [session, name, args] = entries[i];
      for (let c = 0; c < 20; c++) {
        const t0 = performance.now();
        const result = await session.client.callTool({ name, arguments: args });
        const ms = performance.now() - t0;
        if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content).slice(0, 300)}`);
        if (block > 0) samples[i].push(ms);
      }
    }
  }
  return samples.map((xs) => median(xs));
}

function deepTree(root) {
  const dir = join(root, 'a', 'b', 'c', 'd');
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < 20; i++)
    writeFileSync(join(dir, `f${i}.txt`), `line one\nneedle ${i}\n${'filler line\n'.repeat(40)}`);
  return { dir, file: join(dir, 'f7.txt') };
}

export async function sandboxBench({ awfServer, fsServer, before, work, calls = 200, notes }) {
  const root = join(work, 'sandbox-bench');
  const tree = deepTree(root);
  const out = { calls, bash: {}, resolution: [] };
  const bwrap = findBwrap();
  const bashRows = [['unconfined', awfServer('awf Bash', { root })]];
  if (bwrap) {
    const boxed = awfServer('awf Bash, bash_sandbox', { root, limits: { bash_sandbox: true } });
    boxed.env = { ...boxed.env, AWF_BWRAP: bwrap };
    bashRows.push(['bwrap', boxed]);
  } else notes.push('sandbox: no bwrap (AWF_BWRAP, PATH, the pinned codex package): the bubblewrap row is left out.');
  const bashSessions = [];
  try {
    for (const [key, server] of bashRows) bashSessions.push([key, await connect(server)]);
    const got = await interleavedP50(
      bashSessions.map(([, session]) => [session, 'Bash', { command: 'true' }]),
      Math.min(calls, 100),
    );
    bashSessions.forEach(([key], i) => (out.bash[key] = got[i]));
  } finally {
    await Promise.all(bashSessions.map(([, s]) => s.close()));
  }
  if (out.bash.bwrap !== undefined) out.bash.addedMs = out.bash.bwrap - out.bash.unconfined;

  const ops = [
    ['Read, 4 levels deep', ['Read', { file_path: tree.file }], ['read_text_file', { path: tree.file }]],
    ['Glob **/*.txt', ['Glob', { pattern: '**/*.txt' }], ['search_files', { path: root, pattern: '**/*.txt' }]],
    ['Grep `needle 7`, JS engine', ['Grep', { pattern: 'needle 7' }], undefined],
  ];
  const servers = [
    ['awf', awfServer('awf', { root })],
    ['fs', fsServer(root)],
  ];
  if (before) servers.push(['before', before(root)]);
  const sessions = [];
  try {
    for (const [key, server] of servers) {
      server.env = { ...server.env, AWF_GREP_ENGINE: 'js' };
      sessions.push([key, await connect(server)]);
    }
    for (const [label, awfCall, fsCall] of ops) {
      const row = { label };
      const measured = sessions.filter(([key]) => key !== 'fs' || fsCall);
      const got = await interleavedP50(
        measured.map(([key, session]) => [session, ...(key === 'fs' ? fsCall : awfCall)]),
        calls,
      );
      measured.forEach(([key], i) => (row[key] = got[i]));
      out.resolution.push(row);
    }
  } finally {
    await Promise.all(sessions.map(([, s]) => s.close()));
  }
  return out;
}
