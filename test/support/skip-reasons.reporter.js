// A jest reporter: after the run, every skipped test is listed under the reason it was skipped,
// taken from a "SKIPPED: <reason>" in its own or an enclosing describe's title
// (test/support/launch-paths.ts describeEach, and the skip helpers of the suites). A skip
// without a reason fails the run: "not run here" must always say why and what would run it.
'use strict';

/** "… — SKIPPED: why" (test/support/skip.ts), or "… (skipped: why)" (the docs-examples suite). */
const REASON = /SKIPPED: (.+)$|\(skipped: (.+)\)$/;

class SkipReasonsReporter {
  constructor(globalConfig) {
    // With -t, the tests it filters out count as skipped too: only reasoned skips are listed then.
    this.filtered = Boolean(globalConfig?.testNamePattern);
    this.byReason = new Map();
    this.unexplained = [];
  }

  onTestResult(_test, result) {
    for (const t of result.testResults) {
      if (t.status !== 'pending' && t.status !== 'skipped' && t.status !== 'todo') continue;
      const titles = [...t.ancestorTitles, t.title];
      const reason = titles
        .map((title) => {
          const m = REASON.exec(title);
          return m && (m[1] ?? m[2]);
        })
        .find(Boolean);
      const where = result.testFilePath.replace(`${process.cwd()}/`, '');
      if (!reason) {
        if (!this.filtered) this.unexplained.push(`${where}: ${titles.join(' › ')}`);
        continue;
      }
      const entry = this.byReason.get(reason) ?? { count: 0, files: new Set() };
      entry.count++;
      entry.files.add(where);
      this.byReason.set(reason, entry);
    }
  }

  onRunComplete() {
    if (this.byReason.size === 0 && this.unexplained.length === 0) return;
    const lines = ['', 'Skipped tests, by reason:'];
    for (const [reason, { count, files }] of [...this.byReason].sort((a, b) => b[1].count - a[1].count)) {
      lines.push(`  ${count} skipped: ${reason}`, `      in ${[...files].sort().join(', ')}`);
    }
    for (const test of this.unexplained) lines.push(`  skipped WITHOUT A REASON: ${test}`);
    process.stderr.write(`${lines.join('\n')}\n`);
  }

  getLastError() {
    if (this.unexplained.length === 0) return undefined;
    return new Error(
      `${this.unexplained.length} test(s) skipped without a reason: give the describe or test a title ending in "SKIPPED: <why>"`,
    );
  }
}

module.exports = SkipReasonsReporter;
