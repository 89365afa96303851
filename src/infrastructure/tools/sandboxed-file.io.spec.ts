import { linkSync, lstatSync, readdirSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtinSandbox } from '../../../test/support/builtin-context';
import { closeDir, openRoot, type Beneath } from './beneath-root.resolver';
import { readRegularFile, SYNC_READ_MAX_BYTES, writeFileAtomic } from './sandboxed-file.io';

describe('sandboxed file I/O', () => {
  const box = builtinSandbox();
  const root = openRoot(box.root);
  afterAll(() => {
    closeDir(root);
    box.cleanup();
  });
  /** A name in the root as the resolver hands it over: the open directory and the name there. */
  const inRoot = (name: string): Beneath => ({
    dir: root,
    name,
    rel: name,
    stat: lstatSync(join(box.root, name), { throwIfNoEntry: false }),
  });

  it('replaces a symlink swapped in after validation instead of writing through it (TOCTOU)', async () => {
    const target = join(box.root, 'validated.txt');
    const victim = join(box.outside, 'victim.txt');
    writeFileSync(target, 'inside');
    writeFileSync(victim, 'untouched');
    // The attacker wins the race: between the check and the write, the file becomes a link out.
    unlinkSync(target);
    symlinkSync(victim, target);
    await writeFileAtomic(inRoot('validated.txt'), 'validated.txt', 'new content');
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(readFileSync(target, 'utf8')).toBe('new content');
    expect(readdirSync(box.root)).toEqual(['validated.txt']);
  });

  it('refuses to read through a symlink swapped in after validation', async () => {
    const target = join(box.root, 'swapped.txt');
    writeFileSync(join(box.outside, 'secret.txt'), 'SECRET');
    symlinkSync(join(box.outside, 'secret.txt'), target);
    await expect(readRegularFile(inRoot('swapped.txt'), 'swapped.txt', 100)).rejects.toThrow(/became a symlink/);
  });

  it('reads at most the cap from a large file and reports its size', async () => {
    writeFileSync(join(box.root, 'big.txt'), 'a'.repeat(5000));
    const read = await readRegularFile(inRoot('big.txt'), 'big.txt', 100);
    expect(read).toMatchObject({ size: 5000, truncated: true });
    expect(read.data.length).toBe(100);
  });

  it('reads a file above the synchronous threshold whole, on the asynchronous path', async () => {
    const content = Buffer.alloc(SYNC_READ_MAX_BYTES * 2 + 123, 'xyz\n');
    writeFileSync(join(box.root, 'large.txt'), content);
    const read = await readRegularFile(inRoot('large.txt'), 'large.txt', SYNC_READ_MAX_BYTES * 4);
    expect(read).toMatchObject({ size: content.length, truncated: false });
    expect(read.data.equals(content)).toBe(true);
  });

  it('refuses a hard-linked file for reading and writing, and leaves the other link as it was', async () => {
    writeFileSync(join(box.outside, 'linked-secret.txt'), 'SECRET');
    linkSync(join(box.outside, 'linked-secret.txt'), join(box.root, 'hard.txt'));
    await expect(readRegularFile(inRoot('hard.txt'), 'hard.txt', 100)).rejects.toThrow('hard.txt has 2 hard links');
    await expect(writeFileAtomic(inRoot('hard.txt'), 'hard.txt', 'x')).rejects.toThrow('hard.txt has 2 hard links');
    expect(readFileSync(join(box.outside, 'linked-secret.txt'), 'utf8')).toBe('SECRET');
    unlinkSync(join(box.root, 'hard.txt'));
  });
});
