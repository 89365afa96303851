// Grep and Glob over a large tree (the repo's node_modules) against `rg` and `find`. The
// awf figure is one tools/call on a running server (what an agent pays); the baseline is
// one process run, output drained. Each baseline does the same search as awf, so it finds the
// same files: awf's Grep reads no .gitignore above the searched directory (plain `rg` would read
// this repo's, whose `dist/` hides every package's dist folder), searches hidden files and skips
// nested node_modules and .git; its Glob skips those two as well. Result counts are of paths
// only, and `sameResults` says whether both listed exactly the same files.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { connect, median, processMs } from './mcp-measure.mjs';

const GREP_PATTERN = 'createServer';
const GLOB_PATTERN = '**/*.d.ts';
/** The file selection awf's ripgrep engine asks for (src/infrastructure/tools/grep/ripgrep.engine.ts). */
const RG_SAME_FILES = [
  '--hidden',
  '--no-config',
  '--no-require-git',
  '--no-ignore-parent',
  '--no-ignore-dot',
  '--no-ignore-global',
  '--no-ignore-exclude',
  '--glob',
  '!.git',
  '--glob',
  '!node_modules',
];

export async function searchBench({ awfServer, rounds, repo, notes }) {
  const root = join(repo, 'node_modules');
  const server = awfServer('awf (search)', {
    events: true,
    root,
    limits: { grep_max_results: 1_000_000, glob_max_results: 1_000_000 },
  });
  const session = await connect(server);
  try {
    const names = (await session.client.listTools()).tools.map((t) => t.name);
    const hasRg = spawnSync('rg', ['--version']).status === 0;
    const out = { tree: 'node_modules', files: countFiles(root), grep: null, glob: null };
    if (!names.includes('Grep')) notes.push('Grep: this build has no built-in Grep tool; row skipped.');
    else if (!hasRg) notes.push('Grep: ripgrep (`rg`) is not installed; row skipped (apt-get install ripgrep).');
    else {
      out.grep = await pair(
        rounds,
        session.client,
        {
          name: 'Grep',
          arguments: { pattern: GREP_PATTERN, path: root, output_mode: 'files_with_matches', head_limit: 1_000_000 },
        },
        ['rg', ['-l', ...RG_SAME_FILES, GREP_PATTERN, '.'], root],
      );
      out.grep.pattern = GREP_PATTERN;
      if (!out.grep.sameResults)
        notes.push(`Grep: awf and rg listed different files (${out.grep.awfLines} / ${out.grep.baselineLines}).`);
    }
    if (!names.includes('Glob')) notes.push('Glob: this build has no built-in Glob tool; row skipped.');
    else {
      out.glob = await pair(
        rounds,
        session.client,
        { name: 'Glob', arguments: { pattern: GLOB_PATTERN, path: root } },
        [
          'find',
          [
            '.',
            '(',
            '-name',
            'node_modules',
            '-o',
            '-name',
            '.git',
            ')',
            '-prune',
            '-o',
            '-name',
            '*.d.ts',
            '-type',
            'f',
            '-print',
          ],
          root,
        ],
      );
      out.glob.pattern = GLOB_PATTERN;
      if (!out.glob.sameResults)
        notes.push(`Glob: awf and find listed different files (${out.glob.awfLines} / ${out.glob.baselineLines}).`);
    }
    return out;
  } finally {
    await session.close();
  }
}

async function pair(rounds, client, call, [cmd, args, cwd]) {
  const awfMs = [];
  const baseMs = [];
  let awfPaths = [];
  let basePaths = [];
  for (let i = 0; i <= rounds; i++) {
    const t = performance.now();
    const result = await client.callTool(call, undefined, { timeout: 120_000 });
    const ms = performance.now() - t;
    if (result.isError) throw new Error(`${call.name} failed: ${JSON.stringify(result.content).slice(0, 300)}`);
    awfPaths = paths(result.content.map((c) => c.text ?? '').join('\n'), cwd);
    const base = await processMs(cmd, args, { cwd });
    basePaths = paths(base.out, cwd);
    if (i > 0) {
      awfMs.push(ms);
      baseMs.push(base.ms);
    }
  }
  const awf = median(awfMs);
  const baseline = median(baseMs);
  const same = awfPaths.length === basePaths.length && new Set([...awfPaths, ...basePaths]).size === awfPaths.length;
  return {
    awfMs: awf,
    baselineMs: baseline,
    baseline: cmd,
    baselineCommand: [cmd, ...args].join(' '),
    ratio: awf / baseline,
    awfLines: awfPaths.length,
    baselineLines: basePaths.length,
    sameResults: same,
  };
}

const lines = (text) => text.split('\n').filter((l) => l.trim() !== '').length;
/** The file paths in an answer, absolute; awf's header ("Found N files") and notes are not paths. */
const paths = (text, cwd) =>
  text
    .split('\n')
    .filter((l) => l.startsWith('/') || l.startsWith('./'))
    .map((l) => resolve(cwd, l));

function countFiles(root) {
  const r = spawnSync('find', [root, '-type', 'f'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return r.status === 0 ? lines(r.stdout) : undefined;
}

// `node bench/lib/search-bench.mjs [--search=N] [--main=path/to/dist/main.js]` after `npm run build`:
// only these two rows, for iterating on Grep and Glob without the minutes the whole bench takes.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const work = mkdtempSync(join(tmpdir(), 'awf-search-bench-'));
  const flag = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const rounds = Number(flag('search') ?? 5);
  const main = resolve(flag('main') ?? join(repo, 'dist', 'main.js'));
  const awfServer = (label, { root, limits }) => {
    const file = join(work, 'proxy.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        intercept_builtins: true,
        plugin_tools: [],
        workflow: 'bench',
        step: 'search',
        run_id: 'bench',
        root_dir: root,
        limits,
      }),
      { mode: 0o600 },
    );
    return {
      label,
      command: process.execPath,
      args: [main, 'mcp-serve', `--config=${file}`],
      cwd: root,
      env: { AWF_LOG_LEVEL: 'info' },
    };
  };
  const notes = [];
  try {
    console.log(JSON.stringify(await searchBench({ awfServer, rounds, repo, notes }), null, 2));
    for (const note of notes) console.log(note);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
