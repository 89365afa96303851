// Grep and Glob over a large tree (the repo's node_modules) against `rg` and `find`. The
// awf figure is one tools/call on a running server (what an agent pays); the baseline is
// one process run, output drained. Result counts are printed so the two can be compared.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { connect, median, processMs } from './mcp-measure.mjs';

const GREP_PATTERN = 'createServer';
const GLOB_PATTERN = '**/*.d.ts';

export async function searchBench({ awfServer, rounds, repo, notes }) {
  const root = join(repo, 'node_modules');
  const server = awfServer('awf (search)', { events: true, root, limits: { grep_max_results: 1_000_000, glob_max_results: 1_000_000 } });
  const session = await connect(server);
  try {
    const names = (await session.client.listTools()).tools.map((t) => t.name);
    const hasRg = spawnSync('rg', ['--version']).status === 0;
    const out = { tree: 'node_modules', files: countFiles(root), grep: null, glob: null };
    if (!names.includes('Grep')) notes.push('Grep: this build has no built-in Grep tool; row skipped.');
    else if (!hasRg) notes.push('Grep: ripgrep (`rg`) is not installed; row skipped (apt-get install ripgrep).');
    else {
      out.grep = await pair(rounds, session.client, { name: 'Grep', arguments: { pattern: GREP_PATTERN, path: root, output_mode: 'files_with_matches', head_limit: 1_000_000 } },
        ['rg', ['-l', GREP_PATTERN, '.'], root]);
      out.grep.pattern = GREP_PATTERN;
    }
    if (!names.includes('Glob')) notes.push('Glob: this build has no built-in Glob tool; row skipped.');
    else {
      out.glob = await pair(rounds, session.client, { name: 'Glob', arguments: { pattern: GLOB_PATTERN, path: root } },
        ['find', ['.', '-name', '*.d.ts', '-type', 'f'], root]);
      out.glob.pattern = GLOB_PATTERN;
    }
    return out;
  } finally {
    await session.close();
  }
}

async function pair(rounds, client, call, [cmd, args, cwd]) {
  const awfMs = [];
  const baseMs = [];
  let awfCount = 0;
  let baseCount = 0;
  for (let i = 0; i <= rounds; i++) {
    const t = performance.now();
    const result = await client.callTool(call, undefined, { timeout: 120_000 });
    const ms = performance.now() - t;
    if (result.isError) throw new Error(`${call.name} failed: ${JSON.stringify(result.content).slice(0, 300)}`);
    awfCount = lines(result.content.map((c) => c.text ?? '').join('\n'));
    const base = await processMs(cmd, args, { cwd });
    baseCount = lines(base.out);
    if (i > 0) {
      awfMs.push(ms);
      baseMs.push(base.ms);
    }
  }
  const awf = median(awfMs);
  const baseline = median(baseMs);
  return { awfMs: awf, baselineMs: baseline, baseline: cmd, ratio: awf / baseline, awfLines: awfCount, baselineLines: baseCount };
}

const lines = (text) => text.split('\n').filter((l) => l.trim() !== '').length;

function countFiles(root) {
  const r = spawnSync('find', [root, '-type', 'f'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return r.status === 0 ? lines(r.stdout) : undefined;
}
