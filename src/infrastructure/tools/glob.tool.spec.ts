import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtinContext, builtinSandbox, builtinTools, text } from '../../../test/support/builtin-context';

describe('GlobTool', () => {
  const box = builtinSandbox();
  const tools = builtinTools();
  const glob = (args: Record<string, unknown>, limits = {}) =>
    tools.callTool('Glob', args, builtinContext(box.root, limits));
  const at = (name: string) => join(box.root, name);
  beforeAll(() => {
    const files = [
      'old.ts',
      'src/mid.ts',
      'src/deep/new.ts',
      '.hidden.ts',
      'notes.md',
      '.git/hook.ts',
      'node_modules/dep/index.ts',
      'pkg/node_modules/x.ts',
    ];
    files.forEach((f, i) => {
      mkdirSync(join(box.root, f, '..'), { recursive: true });
      writeFileSync(at(f), f);
      utimesSync(at(f), 1_000_000 + i * 1000, 1_000_000 + i * 1000);
    });
    writeFileSync(join(box.outside, 'secret.ts'), 'secret');
    symlinkSync(box.outside, at('out-link'));
    symlinkSync('/', at('root-link'));
    symlinkSync(join(box.outside, 'secret.ts'), at('file-link.ts'));
  });
  afterAll(() => box.cleanup());

  it('matches ** recursively, newest first, hidden files included, .git/node_modules and symlinks skipped', async () => {
    expect(text(await glob({ pattern: '**/*.ts' })).split('\n')).toEqual([
      at('.hidden.ts'),
      at('src/deep/new.ts'),
      at('src/mid.ts'),
      at('old.ts'),
    ]);
  });

  it('searches under path', async () => {
    expect(text(await glob({ pattern: '*.ts', path: 'src' }))).toBe(at('src/mid.ts'));
    expect(text(await glob({ pattern: '**/*.{ts,md}', path: at('src') })).split('\n')).toEqual([
      at('src/deep/new.ts'),
      at('src/mid.ts'),
    ]);
  });

  it('caps the results with a note', async () => {
    expect(text(await glob({ pattern: '**/*' }, { glob_max_results: 2 }))).toMatch(
      /^.+\n.+\n\[Results truncated: showing 2 of 5 files/,
    );
  });

  it('says so when nothing matches', async () => {
    expect(text(await glob({ pattern: '*.rs' }))).toBe('No files found');
  });

  it.each([
    [{ pattern: '/etc/*' }, /absolute patterns are refused/],
    [{ pattern: '../outside/*' }, /".." in a pattern is refused/],
    [{ pattern: 'src/../../*' }, /".." in a pattern is refused/],
    [{ pattern: '{..,src}/*' }, /".." in a pattern is refused/],
    [{ pattern: '*', path: '..' }, /outside the sandbox root/],
    [{ pattern: '*', path: 'out-link' }, /through a symlink/],
    [{ pattern: '*', path: 'notes.md' }, /not a directory/],
    [{}, /missing required argument "pattern"/],
  ])('refuses %j', async (args, message) => {
    const result = await glob(args);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(message);
  });
});
