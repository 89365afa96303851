// Compares two runs of the conformance suite's server scenarios — @modelcontextprotocol/server-everything
// served directly, and awf's /mcp fronting it — scenario by scenario (checks passed and failed), and
// prints every difference. A difference listed under the run's key of the baseline (with why) is
// expected; the exit status is 1 for one that is not listed, and for a listed one that is gone.
// With --status (runs of two protocol versions, whose scenarios count different checks) a scenario
// compares as passed (no check failed) or failed, and only the scenarios of the awf run count.
// usage: node compare-servers.mjs [--status] <direct output> <awf output> <baseline.yml> <key>
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const status = args[0] === '--status';
const [directFile, awfFile, baselineFile, key] = status ? args.slice(1) : args;

/** `✓ name: 1 passed, 0 failed` lines of the suite's summary → name → "1 passed, 0 failed". */
function results(file) {
  const out = new Map();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^\S+ ([a-z0-9][\w./-]*): (\d+) passed, (\d+) failed/.exec(line);
    if (m) out.set(m[1], status ? (m[3] === '0' ? 'passed' : 'failed') : `${m[2]} passed, ${m[3]} failed`);
  }
  if (out.size === 0) throw new Error(`${file}: no scenario results in it (did the suite run?)`);
  return out;
}

/** The scenario names listed under `<key>:` of the baseline (`  - name` lines). */
function listed(file, section) {
  const names = new Set();
  let inside = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\S/.test(line)) inside = line.startsWith(`${section}:`);
    const m = inside && /^\s+- ([^\s#]+)/.exec(line);
    if (m) names.add(m[1]);
  }
  return names;
}

const direct = results(directFile);
const awf = results(awfFile);
const expected = listed(baselineFile, key);
const names = [...new Set([...(status ? [] : direct.keys()), ...awf.keys()])].sort();
let unexpected = 0;
let same = 0;
for (const name of names) {
  const d = direct.get(name) ?? 'not run';
  const a = awf.get(name) ?? 'not run';
  if (d === a) {
    same++;
    if (expected.has(name)) {
      console.log(`  ${name}: listed in ${baselineFile} (${key}) but now the same (${a}): remove it`);
      unexpected++;
    }
    continue;
  }
  const mark = expected.has(name) ? 'expected' : 'UNEXPECTED';
  if (!expected.has(name)) unexpected++;
  console.log(`  ${name}: direct ${d}; through awf ${a} (${mark})`);
}
console.log(`${key}: ${same} of ${names.length} scenarios the same; ${unexpected} unexpected difference(s)`);
process.exit(unexpected ? 1 : 0);
