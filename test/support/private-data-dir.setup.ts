import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Each test file gets its own data dir: an awf a test starts without one would otherwise keep
// history, tool pins and approvals in the developer's ~/.local/share/awf, and a pin from an older
// checkout's fixtures would then refuse tools in a later run. Tests that need a data dir of
// their own still set XDG_DATA_HOME themselves.
const dir = mkdtempSync(join(tmpdir(), 'awf-test-data-'));
process.env.XDG_DATA_HOME = dir;

afterAll(() => rmSync(dir, { recursive: true, force: true }));
