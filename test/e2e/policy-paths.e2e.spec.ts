import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../support/cli';
import { callBuiltin } from '../support/builtin-e2e';
import { describeEach, PLAIN, ripgrepVariants } from '../support/launch-paths';
import { connectMcpServe, type McpSession } from '../support/mcp-client';

/**
 * Path rules (docs/policy.md) through a real `awf mcp-serve`, on the plain
 * launch, with ripgrep on PATH (Grep runs rg) and hidden (the JS walker): a denied file is
 * never read, written, or shown by Glob and Grep, judged on the path the sandbox resolved
 * through symlinks. Without the policy the same queries show those files: the rules decide.
 */
const LAYERS = [
  { origin: '.awf/config.yaml', paths: { deny: ['**/*.pem', 'config/credentials*'] } },
  { origin: 'step s', paths: { read: ['**'], write: ['src/**'] } },
];

describeEach(
  [PLAIN].flatMap((launch) =>
    ripgrepVariants().map((rg) => ({ launch, rg, name: `${launch.name}, ${rg.name}`, skip: launch.skip ?? rg.skip })),
  ),
  'path rules through awf mcp-serve',
  ({ launch, rg }) => {
    const project = scratchDir({
      'src/app.ts': 'export const token = "TODO";\n',
      'config/credentials.txt': 'TODO rotate this key\n',
      'config/app.json': '{"todo": "TODO"}\n',
      'deploy/keys/server.pem': 'TODO -----BEGIN PRIVATE KEY-----\n',
      'notes.md': 'TODO: notes\n',
    });
    // A spelling that looks harmless and resolves to a denied file.
    symlinkSync(join(project.dir, 'config/credentials.txt'), join(project.dir, 'src/alias.txt'));
    // The proxy configs and the audit trail live outside the root, so no query finds them.
    const aside = scratchDir();
    const events = join(aside.dir, 'events.jsonl');
    let guarded: McpSession;
    let open: McpSession;
    const env = { PATH: rg.path };
    beforeAll(async () => {
      guarded = await connectMcpServe(
        aside.dir,
        { root_dir: project.dir, step: 's', events_path: events, policy: { layers: LAYERS } },
        { env, launch },
      );
      open = await connectMcpServe(aside.dir, { root_dir: project.dir }, { env, launch });
    }, 120_000);
    afterAll(async () => {
      await guarded.close();
      await open.close();
      project.cleanup();
      aside.cleanup();
    });

    // Neither walker follows symlinks, so alias.txt is never listed; it is tested by name below.
    const denied = ['credentials.txt', 'server.pem'];

    it.each([
      ['Glob', { pattern: '**/*' }],
      ['Grep', { pattern: 'TODO' }],
      ['Grep', { pattern: 'TODO', output_mode: 'content' }],
      ['Grep', { pattern: 'TODO', output_mode: 'count' }],
    ])('%s %j never shows a denied file', async (tool, args) => {
      const bare = await callBuiltin(open, tool, args);
      for (const name of denied) expect(bare.text).toContain(name); // the query does reach them
      const { isError, text } = await callBuiltin(guarded, tool, args);
      expect(isError).toBe(false);
      for (const name of denied) expect(text).not.toContain(name);
      expect(text).toContain('app.ts');
      expect(text).toContain('notes.md');
    });

    it('records how many paths the rules hid, in the audit trail', async () => {
      await callBuiltin(guarded, 'Glob', { pattern: 'config/*' });
      const lines = readFileSync(events, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines.at(-1)).toMatchObject({ tool: 'Glob', policy: { decision: 'allowed', hidden: 1 } });
    });

    it('refuses to read a denied file, under its own name or through a symlink', async () => {
      const direct = await callBuiltin(guarded, 'Read', { file_path: 'config/credentials.txt' });
      expect(direct.isError).toBe(true);
      expect(direct.text).toMatch(
        /\[POLICY\.PATH_DENIED\].*config\/credentials\.txt.*\nDecided by: \.awf\/config\.yaml: paths\.deny "config\/credentials\*"/s,
      );
      const linked = await callBuiltin(guarded, 'Read', { file_path: 'src/alias.txt' });
      expect(linked.text).toMatch(/\[POLICY\.PATH_DENIED\].*config\/credentials\.txt/s);
      expect(linked.text).not.toContain('rotate this key');
      const query = { pattern: 'rotate', path: 'src/alias.txt', output_mode: 'content' };
      expect((await callBuiltin(open, 'Grep', query)).text).toContain('rotate this key');
      const searched = await callBuiltin(guarded, 'Grep', query);
      expect(searched.text).toMatch(/\[POLICY\.PATH_DENIED\]/);
      expect(searched.text).not.toContain('rotate this key');
      expect((await callBuiltin(guarded, 'Read', { file_path: 'notes.md' })).text).toContain('TODO: notes');
    });

    it('writes only where paths.write allows, and keeps serving after a refusal', async () => {
      const outside = await callBuiltin(guarded, 'Write', { file_path: 'notes2.md', content: 'x' });
      expect(outside.text).toMatch(/\[POLICY\.PATH_DENIED\].*\nDecided by: step s: paths\.write/s);
      expect(existsSync(join(project.dir, 'notes2.md'))).toBe(false);
      const edit = await callBuiltin(guarded, 'Edit', {
        file_path: 'config/app.json',
        old_string: 'TODO',
        new_string: 'done',
      });
      expect(edit.text).toMatch(/\[POLICY\.PATH_DENIED\]/);
      expect(readFileSync(join(project.dir, 'config/app.json'), 'utf8')).toContain('TODO');
      const inside = await callBuiltin(guarded, 'Write', { file_path: `src/new-${rg.name.length}.ts`, content: 'x' });
      expect(inside.isError).toBe(false);
    });
  },
);
