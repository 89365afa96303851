#!/usr/bin/env node
// The `awf` binary. It only picks how the CLI is loaded: the esbuild bundle next to it
// (one file, no node_modules walk, no interactive-prompt library; see docs/adr/
// 091-perf-bundle-and-snapshot.md), or the plain tsc output when there is no bundle or
// AWF_NO_BUNDLE=1 (debugging with source maps). Both run the same runCli().
import { existsSync } from 'node:fs';
import { join } from 'node:path';

type CliEntry = { runCli: (argv: string[]) => Promise<void> };

const bundle = join(__dirname, 'awf.cjs');
const useBundle = process.env.AWF_NO_BUNDLE !== '1' && existsSync(bundle);
const entry = (useBundle ? require(bundle) : require('./interfaces/cli/cli-main')) as CliEntry;
void entry.runCli(process.argv);
