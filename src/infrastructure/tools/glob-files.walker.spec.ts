import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { builtinSandbox } from '../../../test/support/builtin-context';
import { DirectoryChain, globFiles, walkPlan } from './glob-files.walker';

describe('Glob walker', () => {
  const box = builtinSandbox();
  const at = (name: string) => join(box.root, name);
  beforeAll(() => {
    for (const f of ['src/a.ts', 'src/deep/b.ts', 'lib/c.ts', 'top.ts']) {
      mkdirSync(join(at(f), '..'), { recursive: true });
      writeFileSync(at(f), f);
    }
    mkdirSync(join(box.outside, 'deep'));
    writeFileSync(join(box.outside, 'deep', 'secret.ts'), 'secret');
    symlinkSync(box.outside, at('out-link'));
  });
  afterAll(() => box.cleanup());
  const found = async (pattern: string) => (await globFiles(box.root, pattern, ['.git', 'node_modules'])).map((f) => f.path).sort();

  it.each([
    ['src/**/*.ts', ['src'], Infinity],
    ['*/*.ts', [], 2],
    ['src/deep/b.ts', ['src', 'deep'], 3],
    ['{src,lib}/*.ts', [], Infinity],
    ['node_modules/x/*.ts', [], Infinity],
    ['./src/*.ts', [], Infinity],
  ])('plans %s: start at %j, at most %s levels', (pattern, start, maxDepth) => {
    expect(walkPlan(pattern, ['node_modules'], picomatch.scan)).toEqual({ start, maxDepth });
  });

  it('never enters a symlinked directory, also when the pattern names it', async () => {
    expect(await found('**/*.ts')).toEqual([at('lib/c.ts'), at('src/a.ts'), at('src/deep/b.ts'), at('top.ts')]);
    expect(await found('out-link/**/*.ts')).toEqual([]);
    expect(await found('out-link/deep/*.ts')).toEqual([]);
  });

  it('reads `a//b` as `a/b` and `src/` as `src`, as tinyglobby did', async () => {
    expect(await found('src//a.ts')).toEqual([at('src/a.ts')]);
    expect(await found('src/**/')).toEqual([at('src/a.ts'), at('src/deep/b.ts')]);
  });

  it('refuses, after the walk, a directory swapped for a symlink to one outside with the same layout', () => {
    const chain = new DirectoryChain(box.root);
    expect(chain.holds(at('src/deep'))).toBe(true);
    renameSync(at('lib'), at('lib-real'));
    symlinkSync(box.outside, at('lib'));
    const later = new DirectoryChain(box.root);
    expect(later.holds(at('lib/deep'))).toBe(false);
    expect(later.holds(at('lib'))).toBe(false);
    expect(later.holds(join(box.outside, 'deep'))).toBe(false);
  });

  it('stops the walk of a cancelled call', async () => {
    const stop = new AbortController();
    stop.abort();
    await expect(globFiles(box.root, '**/*', ['node_modules'], stop.signal)).rejects.toThrow('Glob: cancelled');
  });
});
