import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtinContext, builtinSandbox } from '../../../test/support/builtin-context';
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
  const { scope } = builtinContext(root);
  const resolve = (input: string) => {
    const found = sandbox.resolve(input, scope, 'path', 'read');
    found.release();
    return { real: found.real, exists: found.exists };
  };
  const refused = (input: string) => expect(() => resolve(input)).toThrow(/refused|empty|cannot be resolved|NUL/);

  it('accepts the root itself and paths below it, relative or absolute', async () => {
    expect(resolve('.')).toEqual({ real: root, exists: true });
    expect(resolve('inside.txt')).toEqual({ real: join(root, 'inside.txt'), exists: true });
    expect(resolve(join(root, 'dir', 'new', 'file.txt'))).toEqual({
      real: join(root, 'dir', 'new', 'file.txt'),
      exists: false,
    });
    expect(resolve('dir/../inside.txt')).toMatchObject({ real: join(root, 'inside.txt') });
  });

  it.each(['../outside/secret.txt', 'dir/../../outside/secret.txt', './../x', 'dir/../..', '/etc/passwd', '/'])(
    'refuses the escape %s',
    (input) => refused(input),
  );

  it.each(['proj2', 'proj-old', 'projectile', 'proj.bak'])(
    'refuses the sibling-prefix directory %s',
    async (sibling) => {
      mkdirSync(join(base, sibling), { recursive: true });
      refused(join(base, sibling, 'x.txt'));
      expect(isInside(join(base, sibling), root)).toBe(false);
    },
  );

  it('refuses NUL bytes, ~ expansion and the empty path', async () => {
    expect(() => resolve('inside.txt\0.png')).toThrow(/NUL/);
    expect(() => resolve('~/x')).toThrow(/home-directory/);
    expect(() => resolve('~root/x')).toThrow(/home-directory/);
    expect(() => resolve('')).toThrow(/empty/);
  });

  it('refuses symlinks that leave the root: file, directory, chains, dangling, and missing children of them', async () => {
    expect(() => resolve('file-link')).toThrow(/through a symlink/);
    expect(() => resolve('dir-link/secret.txt')).toThrow(/through a symlink/);
    expect(() => resolve('dir-link/new/dir/file.txt')).toThrow(/through a symlink/);
    expect(() => resolve('a-link/secret.txt')).toThrow(/through a symlink/);
    expect(() => resolve('dangling')).toThrow(/through a symlink/);
    expect(() => resolve('loop')).toThrow(/loop/);
  });

  it('accepts both spellings of a symlinked root', async () => {
    expect(resolve(join(base, 'root-link', 'inside.txt'))).toMatchObject({ real: join(root, 'inside.txt') });
    expect(resolve(join(root, 'inside.txt'))).toMatchObject({ real: join(root, 'inside.txt') });
  });

  it('refuses a path whose parent is a file', async () => {
    expect(() => resolve('inside.txt/child')).toThrow(/parent of it is a file/);
  });

  it('follows symlinks that stay inside, relative or absolute, and refuses a `..` in a target that climbs out', () => {
    symlinkSync('dir', join(root, 'rel-link'));
    symlinkSync(join(root, 'dir'), join(root, 'abs-link'));
    symlinkSync('../inside.txt', join(root, 'dir', 'up-link'));
    symlinkSync('../../outside/secret.txt', join(root, 'dir', 'out-link'));
    writeFileSync(join(root, 'dir', 'f.txt'), 'f');
    expect(resolve('rel-link/f.txt')).toEqual({ real: join(root, 'dir', 'f.txt'), exists: true });
    expect(resolve('abs-link/f.txt')).toEqual({ real: join(root, 'dir', 'f.txt'), exists: true });
    expect(resolve('dir/up-link')).toEqual({ real: join(root, 'inside.txt'), exists: true });
    expect(() => resolve('dir/out-link')).toThrow(/through a symlink to a location outside/);
  });

  it('creates missing parents only when asked, one level at a time, inside the checked directory', () => {
    const found = sandbox.resolve('dir/a/b/c.txt', scope, 'file_path', 'write', true);
    found.release();
    expect(found).toMatchObject({ real: join(root, 'dir', 'a', 'b', 'c.txt'), rel: 'dir/a/b/c.txt', exists: false });
    expect(resolve('dir/x/y.txt')).toEqual({ real: join(root, 'dir', 'x', 'y.txt'), exists: false });
    expect(() => resolve('dir/a/b')).not.toThrow();
  });

  it('asks a bound PathGuard about the resolved path, never the spelling', () => {
    const asked: string[] = [];
    const guarded = new PathSandbox({
      denial: (rel, access) => (
        asked.push(`${access}:${rel}`),
        rel.startsWith('dir/') ? 'denied by policy' : undefined
      ),
    });
    expect(() => guarded.resolve('rel-link/f.txt', scope, 'file_path', 'read')).toThrow(
      'file_path "rel-link/f.txt": denied by policy',
    );
    guarded.resolve('inside.txt', scope, 'file_path', 'write').release();
    expect(asked).toEqual(['read:dir/f.txt', 'write:inside.txt']);
  });
});
