import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT, runAwf } from '../support/cli';
import { docProject } from '../support/doc-example-project';
import { consoleCommands } from '../support/doc-example-runners';
import { extractExamples } from '../support/doc-examples';
import { connectMcpServe } from '../support/mcp-client';

// A real `npm install` (the extension's devDependencies) on a shared machine: generous bounds.
jest.setTimeout(600_000);

/**
 * docs/extending.md's recipe, exactly as written: its package.json, tsconfig.json and module,
 * built with its own commands (a real `npm install` and `tsc`), named in .awf/config.yaml as it
 * shows, and then serving its tool in `awf run` and in `awf mcp-serve` (issue #34 item 15).
 */
describe('the extension recipe of docs/extending.md', () => {
  const blocks = extractExamples(REPO_ROOT, 'docs/extending.md');
  const project = docProject();
  const env = { ...project.env, npm_config_offline: 'false', npm_config_prefer_offline: 'true' } as Record<
    string,
    string
  >;
  afterAll(() => project.cleanup());

  const written = (file: string): string => {
    const block = blocks.find((b) => b.file === file);
    if (!block) throw new Error(`docs/extending.md has no block written to ${file}`);
    return block.code;
  };
  const startingWith = (first: string): string => {
    const block = blocks.find((b) => b.lang === 'yaml' && b.code.startsWith(`${first}\n`));
    if (!block) throw new Error(`docs/extending.md has no yaml block starting "${first}"`);
    return block.code;
  };
  const put = (file: string, text: string) => {
    mkdirSync(dirname(join(project.dir, file)), { recursive: true });
    writeFileSync(join(project.dir, file), text);
  };

  it('builds from the doc’s files with the doc’s commands', () => {
    for (const file of ['tickets/package.json', 'tickets/tsconfig.json', 'tickets/src/tickets.module.ts'])
      put(file, written(file));
    const build = blocks.find((b) => b.lang === 'console' && b.code.includes('npm run build'));
    expect(build).toBeDefined();
    const r = spawnSync('bash', ['-euo', 'pipefail', '-c', consoleCommands(build!.code)], {
      cwd: project.dir,
      env,
      encoding: 'utf8',
      timeout: 500_000,
    });
    expect({ status: r.status, output: r.status === 0 ? '' : r.stdout + r.stderr }).toEqual({ status: 0, output: '' });
  });

  it('serves its tool in awf run, through the .awf/config.yaml the doc shows', () => {
    const config = startingWith('# .awf/config.yaml');
    expect(parse(config)).toEqual({ extensions: ['./tickets/dist/tickets.module.js'] });
    put('.awf/config.yaml', config);
    put('tickets.yaml', startingWith('# tickets.yaml'));
    const r = runAwf(['run', 'tickets.yaml'], { cwd: project.dir, env, timeout: 200_000 });
    expect(r.stderr).toMatch(/✓ look {2}success .*\(1 tool call, 0 errors/);
    expect(r.stdout).toContain('ticket T-42: open');
    expect(r.status).toBe(0);
  });

  it('serves it in awf mcp-serve started from anywhere, next to the built-ins', async () => {
    const session = await connectMcpServe(project.dir, { project_dir: project.dir }, { env, cwd: REPO_ROOT });
    try {
      const { tools } = await session.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['Read', 'ticket_lookup']));
      const answer = await session.client.callTool({ name: 'ticket_lookup', arguments: { id: 'T-7' } });
      expect(answer).toMatchObject({ content: [{ type: 'text', text: 'ticket T-7: open' }] });
    } finally {
      await session.close();
    }
  });
});
