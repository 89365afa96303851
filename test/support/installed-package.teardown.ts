/** jest globalTeardown: removes the record the globalSetup left in the temp dir (the package stays, reused). */
import { rmSync } from 'node:fs';
import { INSTALLED_ENV } from './installed-package';

export default function teardown(): void {
  const file = process.env[INSTALLED_ENV];
  // Only a record this run's setup wrote: one handed in from outside belongs to its writer.
  if (file && process.env.AWF_TEST_INSTALLED_BY_SETUP === file) rmSync(file, { force: true });
}
