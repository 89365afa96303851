/** jest globalSetup: packs and installs the built tree once per run, for the `installed` launch path. */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INSTALLED_ENV, installPackedPackage } from './installed-package';

export default function setup(): void {
  if (process.env[INSTALLED_ENV]) return;
  const started = Date.now();
  const pkg = installPackedPackage();
  const file = join(tmpdir(), `awf-installed-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(pkg));
  process.env[INSTALLED_ENV] = file;
  process.env.AWF_TEST_INSTALLED_BY_SETUP = file;
  process.stderr.write(
    `\n[installed package] ${pkg.error ? `FAILED: ${pkg.error}` : pkg.packageDir} (${Date.now() - started} ms)\n`,
  );
}
