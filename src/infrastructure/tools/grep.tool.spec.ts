import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtinContext, builtinSandbox, builtinTools, text } from '../../../test/support/builtin-context';
import { pathWith, reportMissing, RIPGREP } from '../../../test/support/optional-tools';
import { GREP_ENGINE_ENV, GREP_TIMEOUT_ENV, MAX_GREP_TIMEOUT_MS, grepTimeoutMs } from './grep.tool';

const FILES: Record<string, string> = {
  '.gitignore': '*.log\n!keep.log\nbuild/\n/top-only.txt\n',
  'a.ts': 'const hello = 1;\nfunction Hello() {}\n// HELLO\n',
  'a/b.js': 'hello from a/b\n',
  'a-b.md': 'hello dash\n',
  'keep.log': 'hello kept\n',
  'drop.log': 'hello dropped\n',
  'top-only.txt': 'hello top\n',
  'sub/top-only.txt': 'hello nested top\n',
  'build/out.js': 'hello build\n',
  'sub/build': 'hello build file\n',
  'sub/nested/.gitignore': 'secret.txt\n',
  'sub/nested/secret.txt': 'hello secret\n',
  '.hidden/h.md': 'hello hidden\n',
  '.git/config': 'hello git\n',
  'node_modules/m.js': 'hello module\n',
  'crlf.txt': 'hello crlf\r\nnext\r\n',
  'ctx.txt':
    Array.from({ length: 10 }, (_, i) => (i === 2 || i === 7 ? `match ${i + 1}` : `line ${i + 1}`)).join('\n') + '\n',
  'multi.txt': 'start\nmiddle\nend\n',
};

const rg = RIPGREP;
reportMissing('ripgrep', rg);

describe.each([['js'], ...(rg ? [['ripgrep']] : [])])('GrepTool on the %s engine', (engine) => {
  const box = builtinSandbox();
  const tools = builtinTools();
  const p = (name: string) => join(box.root, name);
  const grep = async (args: Record<string, unknown>, limits = {}) => {
    process.env[GREP_ENGINE_ENV] = engine;
    const path = process.env.PATH;
    if (rg) process.env.PATH = pathWith(rg);
    try {
      return await tools.callTool('Grep', args, builtinContext(box.root, limits));
    } finally {
      delete process.env[GREP_ENGINE_ENV];
      process.env.PATH = path;
    }
  };
  beforeAll(() => {
    for (const [name, content] of Object.entries(FILES)) {
      mkdirSync(join(box.root, name, '..'), { recursive: true });
      writeFileSync(p(name), content);
    }
    writeFileSync(p('bin.dat'), Buffer.from('hello\0binary\n'));
    writeFileSync(join(box.outside, 'o.txt'), 'hello outside\n');
    symlinkSync(box.outside, p('link'));
    symlinkSync(join(box.outside, 'o.txt'), p('o-link.txt'));
  });
  afterAll(() => box.cleanup());

  it('lists matching files in path order, honouring .gitignore, skipping binaries, .git, node_modules and symlinks', async () => {
    expect(text(await grep({ pattern: 'hello' }))).toBe(
      [
        'Found 8 files',
        p('.hidden/h.md'),
        p('a/b.js'),
        p('a-b.md'),
        p('a.ts'),
        p('crlf.txt'),
        p('keep.log'),
        p('sub/build'),
        p('sub/top-only.txt'),
      ].join('\n'),
    );
  });

  it('searches one file below the root, named by its path (the root is closed once)', async () => {
    expect(text(await grep({ pattern: 'hello', output_mode: 'content', path: 'a/b.js' }))).toBe(
      `${p('a/b.js')}:1:hello from a/b`,
    );
    expect(text(await grep({ pattern: 'hello', output_mode: 'content', path: 'sub/nested/secret.txt' }))).toBe(
      `${p('sub/nested/secret.txt')}:1:hello secret`,
    );
  });

  it('prints path:line:text in content mode, CR stripped', async () => {
    expect(text(await grep({ pattern: 'hello', output_mode: 'content', path: 'crlf.txt' }))).toBe(
      `${p('crlf.txt')}:1:hello crlf`,
    );
    expect(text(await grep({ pattern: 'hello', output_mode: 'content', '-i': true, type: 'ts' }))).toBe(
      [`${p('a.ts')}:1:const hello = 1;`, `${p('a.ts')}:2:function Hello() {}`, `${p('a.ts')}:3:// HELLO`].join('\n'),
    );
    expect(text(await grep({ pattern: 'HELLO', output_mode: 'content', '-n': false, glob: '*.ts' }))).toBe(
      `${p('a.ts')}:// HELLO`,
    );
  });

  it('shows context lines and separates groups', async () => {
    expect(text(await grep({ pattern: 'match', output_mode: 'content', path: 'ctx.txt', '-B': 1, '-A': 1 }))).toBe(
      [
        `${p('ctx.txt')}-2-line 2`,
        `${p('ctx.txt')}:3:match 3`,
        `${p('ctx.txt')}-4-line 4`,
        '--',
        `${p('ctx.txt')}-7-line 7`,
        `${p('ctx.txt')}:8:match 8`,
        `${p('ctx.txt')}-9-line 9`,
      ].join('\n'),
    );
    expect(
      text(await grep({ pattern: 'match 3', output_mode: 'content', path: 'ctx.txt', '-C': 2 })).split('\n'),
    ).toHaveLength(5);
  });

  it('counts matching lines per file', async () => {
    expect(text(await grep({ pattern: 'hello', output_mode: 'count', '-i': true, glob: '*.{ts,js}' }))).toBe(
      `${p('a/b.js')}:1\n${p('a.ts')}:3`,
    );
  });

  it('matches across lines only in multiline mode', async () => {
    expect(text(await grep({ pattern: 'start.middle', path: 'multi.txt' }))).toBe('No matches found');
    expect(
      text(await grep({ pattern: 'start.middle', path: 'multi.txt', multiline: true, output_mode: 'content' })),
    ).toBe(`${p('multi.txt')}:1:start\n${p('multi.txt')}:2:middle`);
  });

  it('stops at head_limit and at the configured cap, with a note', async () => {
    expect(text(await grep({ pattern: 'hello', head_limit: 2 }))).toBe(
      [
        'Found 2 files (more exist)',
        p('.hidden/h.md'),
        p('a/b.js'),
        '[Results truncated: showing 2 files. Raise head_limit to see more.]',
      ].join('\n'),
    );
    expect(
      text(await grep({ pattern: 'line', output_mode: 'content', path: 'ctx.txt' }, { grep_max_results: 3 })),
    ).toBe(
      [
        `${p('ctx.txt')}:1:line 1`,
        `${p('ctx.txt')}:2:line 2`,
        `${p('ctx.txt')}:4:line 4`,
        '[Results truncated: showing 3 lines. Narrow the pattern, path, glob or type.]',
      ].join('\n'),
    );
  });

  it('cuts a long answer below what an MCP client accepts', async () => {
    writeFileSync(p('wide.txt'), `hit ${'w'.repeat(1900)}\n`.repeat(200));
    const out = text(
      await grep({ pattern: 'hit', path: 'wide.txt', output_mode: 'content' }, { grep_max_results: 1000 }),
    );
    expect(out.length).toBeLessThan(101_000);
    expect(out).toMatch(/\[Results truncated: showing \d+ lines\. Narrow the pattern, path, glob or type\.\]$/);
  });

  it('searches an explicitly named file even when ignored', async () => {
    expect(text(await grep({ pattern: 'dropped', path: 'drop.log' }))).toBe(`Found 1 file\n${p('drop.log')}`);
  });

  it.each([
    [{ pattern: '(' }, /invalid regular expression/],
    [{ pattern: 'x', path: 'link' }, /through a symlink/],
    [{ pattern: 'x', path: '../outside' }, /outside the sandbox root/],
    [{ pattern: 'x', type: 'cobol' }, /unknown type "cobol"/],
    [{ pattern: 'x', output_mode: 'lines' }, /output_mode must be one of/],
    [{ pattern: 'x', '-A': -1 }, /"-A" must be at least 0/],
    [{}, /missing required argument "pattern"/],
  ])('refuses %j', async (args, message) => {
    const result = await grep(args);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(message);
  });
});

describe('Grep time limit', () => {
  it('stops a search well before an MCP client gives up on the call (60 s by default)', () => {
    expect(grepTimeoutMs({})).toBe(20_000);
    expect(grepTimeoutMs({ [GREP_TIMEOUT_ENV]: '3000' })).toBe(3000);
    expect(grepTimeoutMs({ [GREP_TIMEOUT_ENV]: '600000' })).toBe(MAX_GREP_TIMEOUT_MS);
    expect(MAX_GREP_TIMEOUT_MS).toBeLessThan(60_000);
    expect(grepTimeoutMs({ [GREP_TIMEOUT_ENV]: 'soon' })).toBe(20_000);
  });
});
