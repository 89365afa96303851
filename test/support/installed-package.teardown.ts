/** jest globalTeardown: removes the record the globalSetup left in the temp dir (the package stays, reused). */
import { rmSync } from 'node:fs';
import { runRecord } from './installed-package.setup';

export default function teardown(): void {
  // Only the record this run's setup wrote: one handed in through the environment is its writer's.
  rmSync(runRecord(), { force: true });
}
