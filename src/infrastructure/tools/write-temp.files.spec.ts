import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeDir, openRoot } from './beneath-root.resolver';
import { writeFileAtomic } from './sandboxed-file.io';
import { STALE_TEMP_MS, writeTempName } from './write-temp.files';

describe('temp files of atomic writes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'awf-write-temp-'));
  const open = openRoot(dir);
  afterAll(() => {
    closeDir(open);
    rmSync(dir, { recursive: true, force: true });
  });
  const notes = () => ({ dir: open, name: 'notes.md', rel: 'notes.md' });

  it('a Write of a file removes the temp files a killed writer left beside it, and nothing else', async () => {
    const stale = join(dir, writeTempName('notes.md'));
    const fresh = join(dir, writeTempName('notes.md'));
    const otherFile = join(dir, writeTempName('other.md'));
    const lookalike = join(dir, '.notes.md.awf-backup.tmp');
    for (const f of [stale, fresh, otherFile, lookalike]) writeFileSync(f, 'partial');
    const old = (Date.now() - STALE_TEMP_MS - 5_000) / 1000;
    for (const f of [stale, otherFile, lookalike]) utimesSync(f, old, old);

    await writeFileAtomic(notes(), 'notes.md', 'done');

    expect(existsSync(stale)).toBe(false);
    // Once per file per process: a second Write does not list the directory again.
    const later = join(dir, writeTempName('notes.md'));
    writeFileSync(later, 'partial');
    utimesSync(later, old, old);
    await writeFileAtomic(notes(), 'notes.md', 'again');
    expect(existsSync(later)).toBe(true);
    rmSync(later);
    // A temp file still being written by a live writer is left alone, as are other files' and non-awf names.
    expect(readdirSync(dir).sort()).toEqual(
      [fresh, otherFile, lookalike, join(dir, 'notes.md')].map((f) => f.slice(dir.length + 1)).sort(),
    );
  });
});
