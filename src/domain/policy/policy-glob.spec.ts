import { compileGlob, GlobSyntaxError } from './policy-glob';

const path = (p: string) => compileGlob(p, 'path');

describe('policy globs', () => {
  it('matches tool names with * and ?', () => {
    const g = compileGlob('kv_*', 'name');
    expect(['kv_get', 'kv_', 'kv_a_b'].every((n) => g.test(n))).toBe(true);
    expect(g.test('xkv_get')).toBe(false);
    expect(compileGlob('Rea?', 'name').test('Read')).toBe(true);
    expect(compileGlob('Read', 'name').test('ReadX')).toBe(false);
  });

  it('keeps * inside one path segment and lets ** cross them', () => {
    expect(path('src/*.ts').test('src/a.ts')).toBe(true);
    expect(path('src/*.ts').test('src/x/a.ts')).toBe(false);
    expect(path('src/**').test('src/x/y/a.ts')).toBe(true);
    expect(path('src/**').test('src')).toBe(true);
    expect(path('src/**').test('srcx/a')).toBe(false);
    expect(path('**/*.pem').test('a/b/key.pem')).toBe(true);
    expect(path('**/*.pem').test('key.pem')).toBe(true);
    expect(path('a/**/b').test('a/b')).toBe(true);
    expect(path('a/**/b').test('a/x/y/b')).toBe(true);
    expect(path('**').test('anything/at/all')).toBe(true);
  });

  it('anchors at the sandbox root: .env is the root .env only', () => {
    expect(path('.env').test('.env')).toBe(true);
    expect(path('.env').test('sub/.env')).toBe(false);
    expect(path('**/.env').test('sub/.env')).toBe(true);
  });

  it('supports classes and alternatives, and takes regex characters literally', () => {
    expect(path('{src,test}/**').test('test/a.ts')).toBe(true);
    expect(path('[ab].txt').test('b.txt')).toBe(true);
    expect(path('[!ab].txt').test('a.txt')).toBe(false);
    expect(path('a+b(c).txt').test('a+b(c).txt')).toBe(true);
    expect(path('a.txt').test('abtxt')).toBe(false);
    expect(compileGlob('npm run *', 'command').test('npm run build --watch')).toBe(true);
    expect(compileGlob('git diff*', 'command').test('git diff --stat')).toBe(true);
    expect(compileGlob('git diff*', 'command').test('git push')).toBe(false);
  });

  it.each(['', '/etc/passwd', 'a//b', '../x', 'a/./b', 'src/[abc', 'src/{a,b', 'a]b', 'x**y/z'])(
    'rejects the path pattern %j',
    (p) => {
      expect(() => path(p)).toThrow(GlobSyntaxError);
    },
  );
});
