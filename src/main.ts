#!/usr/bin/env node
// The `awf` binary. `awf --version` answers here, before anything else is loaded. Everything
// else runs runCli() (interfaces/cli/cli-main.ts) from the esbuild bundle next to this file
// when there is one (one file: Nest and the command's code parse and load in half the time
// that thousands of node_modules files take; docs/performance.md), or from the tsc output
// (AWF_NO_BUNDLE=1, e.g. for source maps while debugging).
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${(require('./version') as typeof import('./version')).versionText()}\n`);
} else {
  const bundle = join(__dirname, 'awf.cjs');
  const useBundle = process.env.AWF_NO_BUNDLE !== '1' && existsSync(bundle);
  type CliEntry = { runCli: (argv: string[]) => Promise<void> };
  const entry = (useBundle ? require(bundle) : require('./interfaces/cli/cli-main')) as CliEntry;
  void entry.runCli(process.argv);
}
