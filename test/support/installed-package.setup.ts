/** jest globalSetup: packs and installs the built tree once per run, for the `installed` launch path. */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INSTALLED_ENV, installPackedPackage } from './installed-package';

/** Where this jest run records its package (the teardown, in the same process, removes it). */
export const runRecord = (): string => join(tmpdir(), `awf-installed-${process.pid}.json`);

export default function setup(): void {
  if (process.env[INSTALLED_ENV]) return;
  const started = Date.now();
  const pkg = installPackedPackage();
  const file = runRecord();
  writeFileSync(file, JSON.stringify(pkg));
  process.env[INSTALLED_ENV] = file;
  process.stderr.write(
    `\n[installed package] ${pkg.error ? `FAILED: ${pkg.error}` : pkg.packageDir} (${Date.now() - started} ms)\n`,
  );
}
