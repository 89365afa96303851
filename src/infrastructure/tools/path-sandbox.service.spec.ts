import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtinSandbox } from '../../../test/support/builtin-context';
import { isInside, PathSandbox } from './path-sandbox.service';

describe('PathSandbox', () => {
  const box = builtinSandbox();
  const sandbox = new PathSandbox();
  const { root, outside, base } = box;
  beforeAll(() => {
    writeFileSync(join(root, 'inside.txt'), 'in');
    writeFileSync(join(outside, 'secret.txt'), 'SECRET');
    mkdirSync(join(root, 'dir'));
    symlinkSync(join(outside, 'secret.txt'), join(root, 'file-link'));
    symlinkSync(outside, join(root, 'dir-link'));
    symlinkSync(join(outside, 'nope.txt'), join(root, 'dangling'));
    symlinkSync(join(root, 'b-link'), join(root, 'a-link'));
    symlinkSync(join(root, 'c-link'), join(root, 'b-link'));
    symlinkSync(outside, join(root, 'c-link'));
    symlinkSync(root, join(base, 'root-link'));
    symlinkSync(join(root, 'loop'), join(root, 'loop'));
  });
  afterAll(() => box.cleanup());

  const refused = (input: string) => expect(sandbox.resolve(input, root)).rejects.toThrow(/refused|empty|cannot be resolved|NUL/);

  it('accepts the root itself and paths below it, relative or absolute', async () => {
    await expect(sandbox.resolve('.', root)).resolves.toEqual({ real: root, exists: true });
    await expect(sandbox.resolve('inside.txt', root)).resolves.toEqual({ real: join(root, 'inside.txt'), exists: true });
    await expect(sandbox.resolve(join(root, 'dir', 'new', 'file.txt'), root)).resolves.toEqual({ real: join(root, 'dir', 'new', 'file.txt'), exists: false });
    await expect(sandbox.resolve('dir/../inside.txt', root)).resolves.toMatchObject({ real: join(root, 'inside.txt') });
  });

  it.each(['../outside/secret.txt', 'dir/../../outside/secret.txt', './../x', 'dir/../..', '/etc/passwd', '/'])('refuses the escape %s', (input) => refused(input));

  it.each(['proj2', 'proj-old', 'projectile', 'proj.bak'])('refuses the sibling-prefix directory %s', async (sibling) => {
    mkdirSync(join(base, sibling), { recursive: true });
    await refused(join(base, sibling, 'x.txt'));
    expect(isInside(join(base, sibling), root)).toBe(false);
  });

  it('refuses NUL bytes, ~ expansion and the empty path', async () => {
    await expect(sandbox.resolve('inside.txt\0.png', root)).rejects.toThrow(/NUL/);
    await expect(sandbox.resolve('~/x', root)).rejects.toThrow(/home-directory/);
    await expect(sandbox.resolve('~root/x', root)).rejects.toThrow(/home-directory/);
    await expect(sandbox.resolve('', root)).rejects.toThrow(/empty/);
  });

  it('refuses symlinks that leave the root: file, directory, chains, dangling, and missing children of them', async () => {
    await expect(sandbox.resolve('file-link', root)).rejects.toThrow(/through a symlink/);
    await expect(sandbox.resolve('dir-link/secret.txt', root)).rejects.toThrow(/through a symlink/);
    await expect(sandbox.resolve('dir-link/new/dir/file.txt', root)).rejects.toThrow(/through a symlink/);
    await expect(sandbox.resolve('a-link/secret.txt', root)).rejects.toThrow(/through a symlink/);
    await expect(sandbox.resolve('dangling', root)).rejects.toThrow(/symlink whose target does not exist/);
    await expect(sandbox.resolve('loop', root)).rejects.toThrow(/loop/);
  });

  it('accepts both spellings of a symlinked root', async () => {
    await expect(sandbox.resolve(join(base, 'root-link', 'inside.txt'), root)).resolves.toMatchObject({ real: join(root, 'inside.txt') });
    await expect(sandbox.resolve(join(root, 'inside.txt'), root)).resolves.toMatchObject({ real: join(root, 'inside.txt') });
  });

  it('refuses a path whose parent is a file', async () => {
    await expect(sandbox.resolve('inside.txt/child', root)).rejects.toThrow(/parent of it is a file/);
  });
});
