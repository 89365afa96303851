import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtinContext, builtinSandbox, builtinTools, text } from '../../../test/support/builtin-context';

describe('EditTool', () => {
  const box = builtinSandbox();
  const tools = builtinTools();
  const file = join(box.root, 'f.txt');
  const edit = (args: Record<string, unknown>) =>
    tools.callTool('Edit', { file_path: 'f.txt', ...args }, builtinContext(box.root, { read_max_bytes: 200 }));
  afterAll(() => box.cleanup());

  it('replaces a unique literal match', async () => {
    writeFileSync(file, 'const a = 1; // $&\n');
    expect(text(await edit({ old_string: 'a = 1', new_string: 'b = $& 2' }))).toBe(
      `Edited ${file}: replaced 1 occurrence.`,
    );
    expect(readFileSync(file, 'utf8')).toBe('const b = $& 2; // $&\n');
  });

  it('refuses several matches without replace_all, naming the count, and replaces all with it', async () => {
    writeFileSync(file, 'foo bar foo baz foo');
    const refused = await edit({ old_string: 'foo', new_string: 'qux' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/matches 3 times/);
    expect(readFileSync(file, 'utf8')).toBe('foo bar foo baz foo');
    expect(text(await edit({ old_string: 'foo', new_string: 'qux', replace_all: true }))).toMatch(
      /replaced 3 occurrences/,
    );
    expect(readFileSync(file, 'utf8')).toBe('qux bar qux baz qux');
  });

  it('matches regex metacharacters literally', async () => {
    writeFileSync(file, 'a.b a+b');
    await edit({ old_string: 'a+b', new_string: 'X' });
    expect(readFileSync(file, 'utf8')).toBe('a.b X');
  });

  it.each([
    [{ old_string: 'absent', new_string: 'x' }, /not found/],
    [{ old_string: 'same', new_string: 'same' }, /identical/],
    [{ old_string: '', new_string: 'x' }, /empty/],
    [{ old_string: 'same', new_string: 'x', replace_all: 'yes' }, /"replace_all" must be true or false/],
    [{ old_string: 'same', new_string: 'x', extra: 1 }, /unknown argument "extra"/],
    [{ new_string: 'x' }, /missing required argument "old_string"/],
  ])('leaves the file unchanged on %j', async (args, message) => {
    writeFileSync(file, 'same text');
    const result = await edit(args);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(message);
    expect(readFileSync(file, 'utf8')).toBe('same text');
    expect(readdirSync(box.root)).toEqual(['f.txt']);
  });

  it('keeps CRLF line endings when the strings use bare LF', async () => {
    writeFileSync(file, 'one\r\ntwo\r\nthree\r\n');
    await edit({ old_string: 'one\ntwo', new_string: 'uno\ndos' });
    expect(readFileSync(file, 'utf8')).toBe('uno\r\ndos\r\nthree\r\n');
  });

  it('refuses a file above the read cap and never writes it back', async () => {
    const big = 'z'.repeat(150) + '\n' + 'z'.repeat(150);
    writeFileSync(file, big);
    const result = await edit({ old_string: 'zzz', new_string: 'y', replace_all: true });
    expect(text(result)).toMatch(/above the 200-byte read limit/);
    expect(readFileSync(file, 'utf8')).toBe(big);
  });

  it('accepts the AWF aliases path, old and new', async () => {
    writeFileSync(file, 'x y z');
    expect(
      text(
        await tools.callTool(
          'Edit',
          { path: 'f.txt', old: 'y', new: 'Y', replace_all: false },
          builtinContext(box.root),
        ),
      ),
    ).toMatch(/replaced 1 occurrence/);
    expect(readFileSync(file, 'utf8')).toBe('x Y z');
  });

  it('refuses a missing file', async () => {
    expect(text(await edit({ file_path: 'nope.txt', old_string: 'a', new_string: 'b' }))).toMatch(/does not exist/);
  });

  it('holds the result to write_max_bytes before building it: a huge new_string, or replace_all growth', async () => {
    const limited = (args: Record<string, unknown>) =>
      tools.callTool(
        'Edit',
        { file_path: 'f.txt', ...args },
        builtinContext(box.root, { read_max_bytes: 200, write_max_bytes: 100 }),
      );
    writeFileSync(file, 'x '.repeat(50));
    const big = await limited({ old_string: 'x', new_string: 'y'.repeat(101) });
    expect(big).toEqual({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'Edit: the edited f.txt would exceed the 100-byte write limit (write_max_bytes); the file is unchanged',
        },
      ],
    });
    // 50 occurrences growing by 2 bytes each: 100 + 100 > 100, refused from the count alone.
    expect((await limited({ old_string: 'x', new_string: 'xyz', replace_all: true })).isError).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('x '.repeat(50));
    // Shrinking is always fine, and growing within the limit too.
    expect(text(await limited({ old_string: 'x ', new_string: '', replace_all: true }))).toMatch(
      /replaced 50 occurrences/,
    );
    expect(readFileSync(file, 'utf8')).toBe('');
  });
});
