import { readdirSync, readFileSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { builtinContext, builtinSandbox, builtinTools, text } from '../../../test/support/builtin-context';

describe('WriteTool', () => {
  const box = builtinSandbox();
  const tools = builtinTools();
  const write = (args: Record<string, unknown>) =>
    tools.callTool('Write', args, builtinContext(box.root, { write_max_bytes: 100 }));
  afterAll(() => box.cleanup());

  it('creates parent directories, writes exact content and leaves no temp file', async () => {
    const result = await write({ file_path: 'a/b/c/file.txt', content: 'héllo\n' });
    expect(text(result)).toBe(`Created ${join(box.root, 'a/b/c/file.txt')} (7 bytes).`);
    expect(readFileSync(join(box.root, 'a/b/c/file.txt'), 'utf8')).toBe('héllo\n');
    expect(readdirSync(join(box.root, 'a/b/c'))).toEqual(['file.txt']);
  });

  it('overwrites an existing file and keeps its permissions', async () => {
    writeFileSync(join(box.root, 'script.sh'), 'old');
    chmodSync(join(box.root, 'script.sh'), 0o755);
    expect(text(await write({ file_path: 'script.sh', content: 'new' }))).toMatch(/^Overwrote/);
    expect(readFileSync(join(box.root, 'script.sh'), 'utf8')).toBe('new');
    expect(statSync(join(box.root, 'script.sh')).mode & 0o777).toBe(0o755);
  });

  it('refuses a read-only file as the shell and editors do, and leaves it as it was (Edit too)', async () => {
    const file = join(box.root, 'locked.txt');
    writeFileSync(file, 'keep me');
    chmodSync(file, 0o444);
    const result = await write({ file_path: 'locked.txt', content: 'replaced' });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      '[USER.FILE.READ_ONLY] locked.txt is read-only (mode 444); nothing was written. ' +
        'Make it writable first (chmod u+w) if it is meant to change.',
    );
    const edit = await tools.callTool(
      'Edit',
      { file_path: 'locked.txt', old_string: 'keep', new_string: 'lose' },
      builtinContext(box.root),
    );
    expect([edit.isError, text(edit)]).toEqual([true, expect.stringContaining('[USER.FILE.READ_ONLY]')]);
    expect(readFileSync(file, 'utf8')).toBe('keep me');
    expect(statSync(file).mode & 0o777).toBe(0o444);
  });

  it('refuses content over the size cap and creates nothing', async () => {
    const result = await write({ file_path: 'big.txt', content: 'x'.repeat(101) });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/101 bytes, which exceeds the 100-byte limit/);
    expect(readdirSync(box.root)).not.toContain('big.txt');
  });

  it('refuses a directory target and missing arguments', async () => {
    expect(text(await write({ file_path: 'a', content: 'x' }))).toMatch(/is a directory/);
    expect(text(await write({ file_path: 'x.txt' }))).toMatch(/missing required argument "content"/);
    expect(text(await write({ content: 'x' }))).toMatch(/missing required argument "file_path"/);
  });

  it('refuses paths outside the root', async () => {
    const result = await write({ file_path: join(box.outside, 'x.txt'), content: 'x' });
    expect(result.isError).toBe(true);
    expect(readdirSync(box.outside)).toEqual([]);
  });
});
