import { GitignoreRules, isIgnored } from './gitignore.matcher';

describe('gitignore rules', () => {
  const root = GitignoreRules.parse(
    ['# comment', '', '*.log', '!keep.log', 'build/', '/top.txt', 'docs/*.tmp', 'trailing   ', '\\#hash'].join('\n'),
    '',
  );
  const nested = GitignoreRules.parse('local.txt\n!*.log\n', 'sub');
  const ignored = (path: string, isDir = false) => isIgnored([root, nested], path, isDir);

  it('matches unanchored names at any depth', () => {
    expect(ignored('a.log')).toBe(true);
    expect(ignored('deep/down/b.log')).toBe(true);
    expect(ignored('a.txt')).toBe(false);
  });

  it('lets a later negation re-include', () => {
    expect(ignored('keep.log')).toBe(false);
    expect(ignored('x/keep.log')).toBe(false);
  });

  it('applies a trailing slash to directories only', () => {
    expect(ignored('build', true)).toBe(true);
    expect(ignored('x/build', true)).toBe(true);
    expect(ignored('build', false)).toBe(false);
  });

  it('anchors patterns holding a slash to the .gitignore directory', () => {
    expect(ignored('top.txt')).toBe(true);
    expect(ignored('x/top.txt')).toBe(false);
    expect(ignored('docs/a.tmp')).toBe(true);
    expect(ignored('x/docs/a.tmp')).toBe(false);
  });

  it('trims unescaped trailing spaces and honours escapes', () => {
    expect(ignored('trailing')).toBe(true);
    expect(ignored('#hash')).toBe(true);
  });

  it('gives a nested .gitignore the last word below its directory only', () => {
    expect(ignored('sub/local.txt')).toBe(true);
    expect(ignored('local.txt')).toBe(false);
    expect(ignored('sub/c.log')).toBe(false);
    expect(ignored('other/c.log')).toBe(true);
  });
});
