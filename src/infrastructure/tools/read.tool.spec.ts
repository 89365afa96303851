import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtinContext, builtinSandbox, builtinTools, text } from '../../../test/support/builtin-context';

describe('ReadTool', () => {
  const box = builtinSandbox();
  const tools = builtinTools();
  const ctx = builtinContext(box.root, { read_default_lines: 5, line_max_chars: 20, read_max_bytes: 1000 });
  const read = (args: Record<string, unknown>) => tools.callTool('Read', args, ctx);
  beforeAll(() => {
    writeFileSync(join(box.root, 'ten.txt'), Array.from({ length: 10 }, (_, i) => `line${i + 1}`).join('\n') + '\n');
    writeFileSync(join(box.root, 'crlf.txt'), 'a\r\nb\r\n');
    writeFileSync(join(box.root, 'long.txt'), 'x'.repeat(50));
    writeFileSync(join(box.root, 'empty.txt'), '');
    writeFileSync(join(box.root, 'bin.dat'), Buffer.from([1, 2, 0, 3]));
    writeFileSync(join(box.root, 'big.txt'), 'y\n'.repeat(1000));
    mkdirSync(join(box.root, 'folder'));
  });
  afterAll(() => box.cleanup());

  it('numbers lines like cat -n and shows the default window with a note on how to continue', async () => {
    const result = await read({ file_path: 'ten.txt' });
    expect(result.isError).toBeUndefined();
    expect(text(result)).toBe(
      [
        '     1\tline1',
        '     2\tline2',
        '     3\tline3',
        '     4\tline4',
        '     5\tline5',
        '[Showing lines 1-5 of 10. Call Read with offset=6 to continue.]',
      ].join('\n'),
    );
  });

  it('pages with a 1-based offset and a limit', async () => {
    expect(text(await read({ file_path: 'ten.txt', offset: 9, limit: 5 }))).toBe('     9\tline9\n    10\tline10');
    expect(text(await read({ file_path: join(box.root, 'ten.txt'), offset: 2, limit: 1 }))).toMatch(
      /^ {5}2\tline2\n\[Showing lines 2-2 of 10/,
    );
    expect(text(await read({ file_path: 'ten.txt', offset: 11 }))).toMatch(/has 10 lines; offset 11 is past the end/);
  });

  it('cuts long lines with a marker and hides CR of CRLF files', async () => {
    expect(text(await read({ file_path: 'long.txt' }))).toBe(
      `     1\t${'x'.repeat(20)}… [line truncated: 30 more characters]`,
    );
    expect(text(await read({ file_path: 'crlf.txt' }))).toBe('     1\ta\n     2\tb');
  });

  it('says so when the size cap cut the file', async () => {
    const out = text(await read({ file_path: 'big.txt', offset: 498, limit: 10 }));
    expect(out).toContain('   500\ty');
    expect(out).not.toContain('   501\t');
    expect(out).toMatch(/The file is 2000 bytes; only its first 1000 bytes can be read/);
  });

  it('stops the window early rather than return more than an MCP client accepts', async () => {
    writeFileSync(join(box.root, 'wide.txt'), `${'w'.repeat(1500)}\n`.repeat(300));
    const out = text(await tools.callTool('Read', { file_path: 'wide.txt' }, builtinContext(box.root)));
    expect(out.length).toBeLessThan(101_000);
    const [, last, next] =
      /\[Showing lines 1-(\d+) of 300\. Call Read with offset=(\d+) to continue\.\]$/.exec(out) ?? [];
    expect(Number(next)).toBe(Number(last) + 1);
    expect(out).toContain(`${last.padStart(6)}\t`);
  });

  it('notes an empty file instead of failing', async () => {
    const result = await read({ file_path: 'empty.txt' });
    expect(result.isError).toBeUndefined();
    expect(text(result)).toMatch(/exists but is empty/);
  });

  it.each([
    [{ file_path: 'missing.txt' }, /missing.txt does not exist/],
    [{ file_path: 'folder' }, /is a directory/],
    [{ file_path: 'bin.dat' }, /binary file/],
    [{}, /missing required argument "file_path"/],
    [{ file_path: 42 }, /"file_path" must be a string, got number/],
    [{ file_path: 'ten.txt', offset: 'x' }, /"offset" must be an integer/],
    [{ file_path: 'ten.txt', limit: 0 }, /"limit" must be at least 1/],
  ])('answers %j with a clear error', async (args, message) => {
    const result = await read(args);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(message);
  });

  it('accepts the path and filePath aliases', async () => {
    expect(text(await read({ path: 'ten.txt', limit: 1 }))).toMatch(/^ {5}1\tline1/);
    expect(text(await read({ filePath: 'ten.txt', limit: 1 }))).toMatch(/^ {5}1\tline1/);
  });

  it('refuses a FIFO without hanging', async () => {
    execFileSync('mkfifo', [join(box.root, 'pipe')]);
    const result = await read({ file_path: 'pipe' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/not a regular file/);
  });
});
