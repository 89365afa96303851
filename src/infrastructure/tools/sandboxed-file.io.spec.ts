import { readdirSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtinSandbox } from '../../../test/support/builtin-context';
import { readRegularFile, SYNC_READ_MAX_BYTES, writeFileAtomic } from './sandboxed-file.io';

describe('sandboxed file I/O', () => {
  const box = builtinSandbox();
  afterAll(() => box.cleanup());

  it('replaces a symlink swapped in after validation instead of writing through it (TOCTOU)', async () => {
    const target = join(box.root, 'validated.txt');
    const victim = join(box.outside, 'victim.txt');
    writeFileSync(target, 'inside');
    writeFileSync(victim, 'untouched');
    // The attacker wins the race: between the check and the write, the file becomes a link out.
    unlinkSync(target);
    symlinkSync(victim, target);
    await writeFileAtomic(target, 'validated.txt', 'new content', box.root);
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(readFileSync(target, 'utf8')).toBe('new content');
    expect(readdirSync(box.root)).toEqual(['validated.txt']);
  });

  it('refuses to read through a symlink swapped in after validation', async () => {
    const target = join(box.root, 'swapped.txt');
    writeFileSync(join(box.outside, 'secret.txt'), 'SECRET');
    symlinkSync(join(box.outside, 'secret.txt'), target);
    await expect(readRegularFile(target, 'swapped.txt', 100)).rejects.toThrow(/became a symlink/);
  });

  it('reads at most the cap from a large file and reports its size', async () => {
    writeFileSync(join(box.root, 'big.txt'), 'a'.repeat(5000));
    const read = await readRegularFile(join(box.root, 'big.txt'), 'big.txt', 100);
    expect(read).toMatchObject({ size: 5000, truncated: true });
    expect(read.data.length).toBe(100);
  });

  it('reads a file above the synchronous threshold whole, on the asynchronous path', async () => {
    const content = Buffer.alloc(SYNC_READ_MAX_BYTES * 2 + 123, 'xyz\n');
    writeFileSync(join(box.root, 'large.txt'), content);
    const read = await readRegularFile(join(box.root, 'large.txt'), 'large.txt', SYNC_READ_MAX_BYTES * 4);
    expect(read).toMatchObject({ size: content.length, truncated: false });
    expect(read.data.equals(content)).toBe(true);
  });
});
