import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ECHO_EXTENSION, projectWithExtensions, scratchDir } from '../support/cli';
import { callBuiltin, isRunning } from '../support/builtin-e2e';
import { describeEach, launchPaths, ripgrepVariants } from '../support/launch-paths';
import { connectMcpServe, type McpSession } from '../support/mcp-client';

describeEach(launchPaths(), 'built-in tools through awf mcp-serve', (launch) => {
  const project = scratchDir({
    'src/app.ts': 'export const greeting = "hello";\nexport function hello() {\n  return greeting;\n}\n',
    'src/util.js': 'module.exports = { hello: 1 };\n',
    'docs/guide.md': '# Hello\n\nSay hello.\n',
    'notes.txt': 'first\r\nsecond\r\n',
    '.gitignore': 'dist/\n',
    'dist/bundle.js': 'hello from the bundle\n',
  });
  let session: McpSession;
  const at = (name: string) => join(project.dir, name);
  beforeAll(async () => {
    session = await connectMcpServe(project.dir, { root_dir: project.dir }, { launch });
  }, 60_000);
  afterAll(async () => {
    await session?.close();
    project.cleanup();
  });

  it('lists the six tools with Claude Code parameter names', async () => {
    const { tools } = await session.client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.inputSchema]));
    expect(Object.keys(byName).sort()).toEqual(['Bash', 'Edit', 'Glob', 'Grep', 'Read', 'Write']);
    expect(byName.Read).toMatchObject({
      required: ['file_path'],
      properties: { file_path: {}, offset: {}, limit: {} },
    });
    expect(byName.Write).toMatchObject({ required: ['file_path', 'content'] });
    expect(byName.Edit).toMatchObject({
      required: ['file_path', 'old_string', 'new_string'],
      properties: { replace_all: {} },
      additionalProperties: false,
    });
    expect(byName.Bash).toMatchObject({ required: ['command'], properties: { timeout: {}, description: {} } });
    expect(byName.Glob).toMatchObject({ required: ['pattern'], properties: { path: {} } });
    expect(Object.keys(byName.Grep.properties ?? {}).sort()).toEqual(
      [
        '-A',
        '-B',
        '-C',
        '-i',
        '-n',
        'glob',
        'head_limit',
        'multiline',
        'output_mode',
        'path',
        'pattern',
        'type',
      ].sort(),
    );
    expect(JSON.stringify(tools)).not.toMatch(/filePath|"old"|"new"/);
  });

  it('says what each tool is: a title and all four MCP annotations, which clients auto-approve by', async () => {
    const { tools } = await session.client.listTools();
    const hints = Object.fromEntries(tools.map((t) => [t.name, { title: t.title, ...t.annotations }]));
    const hint = (
      title: string,
      readOnlyHint: boolean,
      destructiveHint: boolean,
      idempotentHint: boolean,
      openWorldHint: boolean,
    ) => ({ title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint });
    expect(hints).toEqual({
      Read: hint('Read file', true, false, true, false),
      Glob: hint('Find files by name', true, false, true, false),
      Grep: hint('Search file contents', true, false, true, false),
      Write: hint('Write file', false, true, true, false),
      Edit: hint('Edit file', false, true, false, false),
      Bash: hint('Run shell command', false, true, false, true),
    });
  });

  it('reads, writes and edits a file in the sandbox', async () => {
    expect(await callBuiltin(session, 'Write', { file_path: 'out/new/file.txt', content: 'alpha\nbeta\n' })).toEqual({
      isError: false,
      text: `Created ${at('out/new/file.txt')} (11 bytes).`,
    });
    expect(
      await callBuiltin(session, 'Edit', {
        file_path: at('out/new/file.txt'),
        old_string: 'beta',
        new_string: 'gamma',
      }),
    ).toMatchObject({ isError: false });
    expect(await callBuiltin(session, 'Read', { file_path: 'out/new/file.txt' })).toEqual({
      isError: false,
      text: '     1\talpha\n     2\tgamma',
    });
    expect(readdirSync(at('out/new'))).toEqual(['file.txt']);
  });

  it('keeps CRLF through Edit and accepts the AWF argument aliases', async () => {
    expect(
      await callBuiltin(session, 'Edit', { path: 'notes.txt', old: 'first\nsecond', new: 'one\ntwo' }),
    ).toMatchObject({ isError: false });
    expect(readFileSync(at('notes.txt'), 'utf8')).toBe('one\r\ntwo\r\n');
  });

  it('runs Bash in the root and reports failures with the exit code and both streams', async () => {
    expect(await callBuiltin(session, 'Bash', { command: 'pwd', description: 'where am I' })).toEqual({
      isError: false,
      text: `${project.dir}\n`,
    });
    expect(await callBuiltin(session, 'Bash', { command: 'echo partial; echo boom >&2; exit 2' })).toEqual({
      isError: true,
      text: 'Exit code 2\npartial\n[stderr]\nboom',
    });
  });

  it('kills the Bash process group when the client cancels the call', async () => {
    const controller = new AbortController();
    const call = session.client.callTool(
      { name: 'Bash', arguments: { command: "sh -c 'readlink /proc/self > cancel.pid; exec sleep 600' & wait" } },
      undefined,
      { signal: controller.signal },
    );
    await waitFor(() => existsSync(at('cancel.pid')) && readFileSync(at('cancel.pid'), 'utf8').trim() !== '');
    controller.abort();
    await expect(call).rejects.toThrow();
    const pid = Number(readFileSync(at('cancel.pid'), 'utf8'));
    await waitFor(() => !isRunning(pid));
    expect(isRunning(pid)).toBe(false);
  });

  it('globs newest first', async () => {
    writeFileSync(at('src/fresh.ts'), 'x');
    const { text } = await callBuiltin(session, 'Glob', { pattern: '**/*.ts' });
    expect(text.split('\n')[0]).toBe(at('src/fresh.ts'));
    expect(text).toContain(at('src/app.ts'));
  });

  it('answers bad arguments with isError results and keeps serving', async () => {
    expect(await callBuiltin(session, 'Read', {})).toEqual({
      isError: true,
      text: 'Read: missing required argument "file_path" (a string)',
    });
    expect(await callBuiltin(session, 'Bash', { command: 42 })).toEqual({
      isError: true,
      text: 'Bash: "command" must be a string, got number',
    });
    await expect(session.client.ping()).resolves.toEqual({});
  });
});

describe('built-ins are served only when intercept_builtins is true', () => {
  const project = projectWithExtensions([ECHO_EXTENSION]);
  afterAll(() => project.cleanup());

  it('lists none of them when it is false', async () => {
    const session = await connectMcpServe(project.dir, { intercept_builtins: false });
    try {
      const { tools } = await session.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['echo', 'explode', 'reject', 'scope']);
    } finally {
      await session.close();
    }
  }, 60_000);
});

// Per launch path, with ripgrep on PATH and hidden from it: the default engine (ripgrep when
// found, else the JS walker in its worker thread) and each engine forced give the same answers.
describeEach(
  launchPaths().flatMap((launch) =>
    ripgrepVariants().map((rg) => ({ launch, rg, name: `${launch.name}, ${rg.name}`, skip: launch.skip ?? rg.skip })),
  ),
  'Grep gives the same answers on ripgrep and on the JS walker',
  ({ launch, rg }) => {
    const project = scratchDir({
      '.gitignore': '*.min.js\nvendor/\n!vendor/keep.js\n',
      'src/a.ts': 'import x from "y";\n// TODO: fix\nconst todo = 1;\n',
      'src/b.tsx': 'export const B = () => null; // TODO later\n',
      'src/c.min.js': 'TODO minified\n',
      'lib/d.py': 'def todo():\n    pass  # TODO\n',
      'vendor/e.js': 'TODO vendored\n',
      'README.md': 'Nothing to do here.\nTODO: write docs\n',
    });
    const engines = rg.name === 'rg on PATH' ? ['default', 'js', 'ripgrep'] : ['default', 'js'];
    const sessions = new Map<string, McpSession>();
    beforeAll(async () => {
      for (const engine of engines) {
        const env: Record<string, string> = {
          PATH: rg.path,
          ...(engine === 'default' ? {} : { AWF_GREP_ENGINE: engine }),
        };
        sessions.set(engine, await connectMcpServe(project.dir, {}, { env, launch }));
      }
    }, 120_000);
    afterAll(async () => {
      for (const session of sessions.values()) await session.close();
      project.cleanup();
    });

    const queries: Array<Record<string, unknown>> = [
      { pattern: 'TODO' },
      { pattern: 'todo', '-i': true, output_mode: 'content' },
      { pattern: 'TODO', output_mode: 'count' },
      { pattern: 'TODO', type: 'ts', output_mode: 'content', '-n': false },
      { pattern: 'TODO', glob: '*.{ts,tsx}', path: 'src' },
      { pattern: 'def', output_mode: 'content', '-A': 1 },
      { pattern: 'TODO', head_limit: 2 },
      { pattern: 'Nothing.*\\n.*TODO', multiline: true, output_mode: 'content' },
    ];

    it.each(queries)('answers %j identically', async (query) => {
      const answers = new Set<string>();
      for (const session of sessions.values()) {
        const { isError, text } = await callBuiltin(session, 'Grep', query);
        expect(isError).toBe(false);
        expect(text).not.toBe('No matches found');
        answers.add(text);
      }
      expect(answers.size).toBe(1);
    });

    it('honours .gitignore the same way on every engine', async () => {
      for (const session of sessions.values()) {
        const { text } = await callBuiltin(session, 'Grep', { pattern: 'TODO' });
        expect(text).toContain(join(project.dir, 'src/a.ts'));
        expect(text).not.toContain('c.min.js');
        expect(text).not.toContain('vendor');
      }
    });
  },
);

async function waitFor(condition: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}
