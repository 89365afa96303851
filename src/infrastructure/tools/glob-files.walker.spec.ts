import { mkdirSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { builtinSandbox } from '../../../test/support/builtin-context';
import { closeDir, openRoot } from './beneath-root.resolver';
import { globFiles, walkPlan } from './glob-files.walker';

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
  const top = () => openRoot(box.root);
  afterAll(() => box.cleanup());
  const found = async (pattern: string) => {
    const dir = top();
    try {
      return (await globFiles(dir, pattern, ['.git', 'node_modules'])).map((f) => join(box.root, f.rel)).sort();
    } finally {
      closeDir(dir);
    }
  };

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

  it('walks by descriptor: a directory swapped for a symlink out after it was opened still lists the inside', async () => {
    const dir = top();
    try {
      // The root is held open; renaming it away and putting a link out in its place changes nothing for the walk.
      renameSync(box.root, `${box.root}-moved`);
      symlinkSync(box.outside, box.root);
      const files = (await globFiles(dir, '**/*.ts', ['node_modules'])).map((f) => f.rel).sort();
      expect(files).toEqual(['lib/c.ts', 'src/a.ts', 'src/deep/b.ts', 'top.ts']);
    } finally {
      closeDir(dir);
      unlinkSync(box.root);
      renameSync(`${box.root}-moved`, box.root);
    }
  });

  it('stops the walk of a cancelled call', async () => {
    const stop = new AbortController();
    stop.abort();
    const dir = top();
    await expect(globFiles(dir, '**/*', ['node_modules'], stop.signal)).rejects.toThrow('Glob: cancelled');
    closeDir(dir);
  });
});
