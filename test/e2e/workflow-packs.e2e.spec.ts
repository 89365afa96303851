import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../support/cli';
import { ReleasesApi, tarGz, type ArchiveSpec } from '../support/releases-api.server';
import { runAwfAsync } from '../support/telemetry-serve';

const manifest = (version: string, extra = '') => `name: hello
version: ${version}
description: Greetings for the team
author: Acme
license: MIT
awf_version: ">=0.8.0"
workflows:
  - greet
${extra}`;

const greet = (word: string) => `name: greet
description: Says ${word}
inputs:
  - name: who
    type: string
    default: team
states:
  initial: say
  say:
    type: step
    command: echo "${word} {{.inputs.who}}"
    on_success: done
  done:
    type: terminal
`;

const pack = (version: string, word: string, extra = ''): ArchiveSpec => ({
  files: {
    'manifest.yaml': manifest(version, extra),
    'workflows/greet.yaml': greet(word),
    'README.md': '# hello\nA pack that greets.\n',
  },
});

describe('workflow packs from releases (built CLI, stand-in releases API on 127.0.0.1)', () => {
  let api: ReleasesApi;
  let project: ReturnType<typeof scratchDir>;
  let env: NodeJS.ProcessEnv;
  const awf = (...args: string[]) => runAwfAsync(args, { cwd: project.dir, env });
  const packsDir = () => join(project.dir, '.awf', 'workflow-packs');

  beforeAll(async () => {
    api = await new ReleasesApi().start();
    api.repos.set('acme/awf-workflow-hello', [
      {
        tag: 'v1.0.0',
        assets: { 'hello-1.0.0.tar.gz': await tarGz(pack('1.0.0', 'hello', 'plugins:\n  jira: ">=1.0.0"\n')) },
      },
    ]);
    api.repos.set('acme/awf-workflow-evil', [
      { tag: 'v1.0.0', assets: { 'evil.tar.gz': await tarGz({ ...pack('1.0.0', 'x'), rawPath: '../escaped.yaml' }) } },
    ]);
    api.repos.set('acme/awf-workflow-forged', [
      {
        tag: 'v1.0.0',
        assets: { 'forged.tar.gz': await tarGz(pack('1.0.0', 'x')) },
        checksums: `${'ab'.repeat(32)}  forged.tar.gz\n`,
      },
    ]);
    api.topics.set('awf-workflow', [
      { full_name: 'acme/awf-workflow-hello', description: 'Greetings for the team', stargazers_count: 12 },
      { full_name: 'acme/awf-workflow-lint', description: 'Lint everything', stargazers_count: 3 },
    ]);
    project = scratchDir({ '.awf/config.yaml': '' });
    env = {
      GITHUB_API_URL: api.url,
      GITHUB_TOKEN: 'ghp_pack_token',
      XDG_DATA_HOME: join(project.dir, 'data'),
      XDG_CONFIG_HOME: join(project.dir, 'config'),
      AWF_PLUGINS_PATH: join(project.dir, 'no-plugins'),
      AWF_WORKFLOWS_PATH: '',
    };
  });
  afterAll(async () => {
    await api.stop();
    project.cleanup();
  });

  it('installs a pack, lists it, shows it, runs and validates its workflow', async () => {
    const installed = await awf('workflow', 'install', 'acme/awf-workflow-hello@1.0.0');
    expect(installed.stderr).toContain(
      'Warning: pack requires plugin "jira" (>=1.0.0) — install with: awf plugin install <owner>/jira',
    );
    expect(installed.stdout).toBe(
      'Fetching releases for acme/awf-workflow-hello...\nResolved version: 1.0.0\nDownloading hello-1.0.0.tar.gz...\n' +
        `Installed workflow pack "hello" v1.0.0 to ${join(packsDir(), 'hello')}\n`,
    );
    expect(installed.status).toBe(0);
    const state = JSON.parse(readFileSync(join(packsDir(), 'hello', 'state.json'), 'utf8'));
    expect(state).toMatchObject({
      name: 'hello',
      enabled: true,
      source_data: { repository: 'acme/awf-workflow-hello', version: '1.0.0' },
    });
    expect(api.seen.filter((s) => s.server === 'cdn').every((s) => s.authorization === undefined)).toBe(true);

    const list = await awf('workflow', 'list');
    expect(list.stdout.split('\n')[1].split(/\s{2,}/)).toEqual([
      'hello',
      '1.0.0',
      'yes',
      'acme/awf-workflow-hello',
      'greet',
    ]);
    const json = JSON.parse((await awf('-f', 'json', 'wf', 'ls')).stdout);
    expect(json.packs[0]).toMatchObject({ name: 'hello', version: '1.0.0', scope: 'local', workflows: ['greet'] });

    const listed = JSON.parse((await awf('-f', 'json', 'list')).stdout).workflows;
    expect(listed).toContainEqual(
      expect.objectContaining({ name: 'hello/greet', source: 'hello', description: 'Says hello' }),
    );

    const info = await awf('workflow', 'info', 'hello');
    expect(info.stdout).toContain('Pack: hello\nVersion: 1.0.0\nDescription: Greetings for the team\nAuthor: Acme\n');
    expect(info.stdout).toContain('Workflows:\n  - greet: Says hello\n');
    expect(info.stdout).toContain('README:\n# hello\nA pack that greets.');

    const run = await awf('run', 'hello/greet', '--input', 'who=world');
    expect([run.status, run.stdout]).toEqual([0, expect.stringContaining('hello world')]);
    const caller =
      'name: caller\nstates:\n  initial: call\n  call:\n    type: call_workflow\n    workflow: hello/greet\n' +
      '    inputs: {who: Ada}\n    on_success: done\n  done:\n    type: terminal\n';
    writeFileSync(join(project.dir, 'caller.yaml'), caller);
    expect((await awf('run', 'caller.yaml')).stdout).toContain('hello Ada');
    const validated = await awf('validate', '--pack', 'hello');
    expect(validated.status).toBe(0);
    expect(validated.stdout).toContain('greet');
  });

  it('updates a pack to its newest release, keeping when it was installed', async () => {
    const before = JSON.parse(readFileSync(join(packsDir(), 'hello', 'state.json'), 'utf8'));
    api.repos
      .get('acme/awf-workflow-hello')!
      .push({ tag: 'v1.1.0', assets: { 'hello-1.1.0.tar.gz': await tarGz(pack('1.1.0', 'howdy')) } });
    const updated = await awf('workflow', 'update', 'hello');
    expect(updated.stdout).toContain('Checking hello for updates (current: 1.0.0)...');
    expect(updated.stdout).toContain('Updated hello from 1.0.0 to 1.1.0');
    const after = JSON.parse(readFileSync(join(packsDir(), 'hello', 'state.json'), 'utf8'));
    expect(after.source_data.version).toBe('1.1.0');
    expect(after.source_data.installed_at).toBe(before.source_data.installed_at);
    expect((await awf('run', 'hello/greet')).stdout).toContain('howdy team');
    expect((await awf('workflow', 'update', 'hello')).stdout).toContain(
      'hello is already at the latest version (1.1.0)',
    );
  });

  it('refuses a second install, a ../ archive and a forged checksum, leaving nothing behind', async () => {
    const again = await awf('workflow', 'install', 'acme/awf-workflow-hello');
    expect([again.status, again.stderr]).toEqual([
      1,
      expect.stringMatching(/^\[USER\.PACK\.EXISTS\] workflow pack already exists at /),
    ]);
    const evil = await awf('workflow', 'install', 'acme/awf-workflow-evil');
    expect([evil.status, evil.stderr]).toEqual([1, expect.stringContaining('[USER.RELEASE.UNSAFE_ARCHIVE]')]);
    expect(evil.stderr).toContain('"../escaped.yaml" climbs out with ".."');
    const forged = await awf('workflow', 'install', 'acme/awf-workflow-forged');
    expect([forged.status, forged.stderr]).toEqual([1, expect.stringContaining('[USER.RELEASE.CHECKSUM_MISMATCH]')]);
    expect(readdirSync(packsDir())).toEqual(['hello']);
    expect(existsSync(join(project.dir, '.awf', 'escaped.yaml'))).toBe(false);
    const bad = await awf('workflow', 'install', 'not-a-repo');
    expect(bad.stderr).toMatch(/^\[USER\.RELEASE\.INVALID_SOURCE\] "not-a-repo" is not owner\/repo/);
  });

  it('searches the packs published with the awf-workflow topic', async () => {
    const found = await awf('workflow', 'search', 'Lint');
    expect(found.stdout).toBe(
      'NAME                    STARS  DESCRIPTION\nacme/awf-workflow-lint  3      Lint everything\n',
    );
    expect(api.seen.at(-1)?.path).toBe('/search/repositories?q=topic%3Aawf-workflow+Lint&sort=stars&order=desc');
  });

  it('removes a pack; its workflows are gone with it, and a global install needs no project', async () => {
    const removed = await awf('workflow', 'remove', 'hello');
    expect(removed.stdout).toBe(`Removed workflow pack "hello" from ${join(packsDir(), 'hello')}\n`);
    const run = await awf('run', 'hello/greet');
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('workflow "hello/greet" not found');
    const elsewhere = join(project.dir, 'elsewhere');
    mkdirSync(elsewhere);
    const global = await runAwfAsync(['workflow', 'install', 'acme/awf-workflow-hello', '--global'], {
      cwd: elsewhere,
      env,
    });
    expect(global.status).toBe(0);
    expect(existsSync(join(project.dir, 'data', 'awf', 'workflow-packs', 'hello', 'manifest.yaml'))).toBe(true);
    expect((await runAwfAsync(['run', 'hello/greet'], { cwd: elsewhere, env })).stdout).toContain('howdy team');
    const noProject = await runAwfAsync(['workflow', 'install', 'acme/awf-workflow-hello'], { cwd: elsewhere, env });
    expect(noProject.stderr).toMatch(/^\[USER\.PACK\.NO_PROJECT\]/);
  });
});
