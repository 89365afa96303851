// A jest reporter: after the run, the launch-path parity matrix (issue #14) as this run saw it.
// Every describe that test/support/launch-paths.ts describeEach names "<suite> [<path>]" or
// "<suite> [<path>, <rg variant>]" adds its tests' outcomes to one cell: suite × launch path ×
// ripgrep variant. A cell reads "12 passed", "3 failed, 9 passed" or "skipped: <reason>".
'use strict';

const CELL = /^(.+) \[(plain|installed)(?:, (rg on PATH|rg hidden))?\](?: — SKIPPED: (.+))?$/;

class LaunchParityReporter {
  constructor() {
    this.cells = new Map();
  }

  onTestResult(_test, result) {
    for (const t of result.testResults) {
      const match = t.ancestorTitles.map((title) => CELL.exec(title)).find(Boolean);
      if (!match) continue;
      const [, suite, path, rg, reason] = match;
      const key = JSON.stringify([suite, rg ?? 'any rg', path]);
      const cell = this.cells.get(key) ?? { passed: 0, failed: 0, skipped: 0, reason };
      if (t.status === 'passed') cell.passed++;
      else if (t.status === 'failed') cell.failed++;
      else cell.skipped++;
      this.cells.set(key, cell);
    }
  }

  onRunComplete() {
    if (this.cells.size === 0) return;
    const paths = ['plain', 'installed'];
    const rows = new Map();
    for (const [key, cell] of this.cells) {
      const [suite, rg, path] = JSON.parse(key);
      const row = `${suite} (${rg})`;
      rows.set(row, { ...rows.get(row), [path]: cellText(cell) });
    }
    const lines = ['', 'Launch-path parity (suite × launch path × ripgrep):', `| suite | ${paths.join(' | ')} |`];
    lines.push(`| --- | ${paths.map(() => '---').join(' | ')} |`);
    for (const [row, cells] of [...rows].sort())
      lines.push(`| ${row} | ${paths.map((p) => cells[p] ?? '—').join(' | ')} |`);
    process.stderr.write(`${lines.join('\n')}\n`);
  }
}

function cellText(cell) {
  if (cell.reason && cell.passed + cell.failed === 0) return `skipped: ${cell.reason}`;
  const parts = [];
  if (cell.failed) parts.push(`${cell.failed} FAILED`);
  parts.push(`${cell.passed} passed`);
  if (cell.skipped) parts.push(`${cell.skipped} skipped`);
  return parts.join(', ');
}

module.exports = LaunchParityReporter;
