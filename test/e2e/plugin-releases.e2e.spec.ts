import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REPO_ROOT, scratchDir } from '../support/cli';
import { ReleasesApi, tarGz, type ArchiveSpec } from '../support/releases-api.server';
import { runAwfAsync } from '../support/telemetry-serve';

jest.setTimeout(120_000);

/** A real plugin executable: the SDK of the built tree, one operation. */
const executable = (version: string) => `#!/usr/bin/env node
const { serve } = require(${JSON.stringify(resolve(REPO_ROOT, 'dist/sdk/index.js'))});
serve({
  name: 'clock',
  version: '${version}',
  operations: { now: { description: 'The time.', run: () => ({ iso8601: new Date().toISOString() }) } },
});
`;
const plugin = (version: string): ArchiveSpec => ({
  files: {
    'plugin.yaml': `name: clock\nversion: ${version}\ndescription: The time\nawf_version: ">=0.1.0"\ncapabilities: [operations]\n`,
    'awf-plugin-clock': { body: executable(version), mode: 0o755 },
  },
});
const GOOS: Record<string, string> = { linux: 'linux', darwin: 'darwin' };
const GOARCH: Record<string, string> = { x64: 'amd64', arm64: 'arm64' };
const here = `${GOOS[process.platform]}_${GOARCH[process.arch]}`;
const other = here === 'linux_amd64' ? 'darwin_arm64' : 'linux_amd64';

describe('plugins from releases (built CLI, stand-in releases API on 127.0.0.1)', () => {
  let api: ReleasesApi;
  let project: ReturnType<typeof scratchDir>;
  let env: NodeJS.ProcessEnv;
  const awf = (...args: string[]) => runAwfAsync(args, { cwd: project.dir, env });
  const installed = () => join(project.dir, '.awf', 'plugins', 'clock');
  const release = async (tag: string, version: string, platform = here) => ({
    tag,
    assets: { [`awf-plugin-clock_${version}_${platform}.tar.gz`]: await tarGz(plugin(version)) },
  });

  beforeAll(async () => {
    api = await new ReleasesApi().start();
    api.repos.set('acme/awf-plugin-clock', [await release('v1.0.0', '1.0.0')]);
    api.repos.set('acme/awf-plugin-elsewhere', [await release('v1.0.0', '1.0.0', other)]);
    api.topics.set('awf-plugin', [
      { full_name: 'acme/awf-plugin-clock', description: 'The time', stargazers_count: 7 },
    ]);
    project = scratchDir({ '.awf/config.yaml': '' });
    env = {
      GITHUB_API_URL: api.url,
      XDG_DATA_HOME: join(project.dir, 'data'),
      AWF_PLUGINS_PATH: '',
      AWF_PLUGIN_HANDSHAKE_TIMEOUT_MS: '60000',
    };
  });
  afterAll(async () => {
    await api.stop();
    project.cleanup();
  });

  it('installs the asset for this OS and CPU, once the plugin starts, and records where it came from', async () => {
    const r = await awf('plugin', 'install', 'acme/awf-plugin-clock@1.0.0');
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain(`Downloading awf-plugin-clock_1.0.0_${here}.tar.gz...`);
    expect(r.stdout).toContain(
      `Plugin "clock" installed successfully (version 1.0.0) in ${installed()}\noperations: now\n`,
    );
    const state = JSON.parse(readFileSync(join(installed(), 'state.json'), 'utf8'));
    expect(state.source_data).toMatchObject({ repository: 'acme/awf-plugin-clock', version: '1.0.0' });
    expect((await awf('plugin', 'list')).stdout).toMatch(/clock\s+1\.0\.0\s+enabled\s+now/);
  });

  it('verifies the installed files, reports a changed one, and records anew with --update', async () => {
    expect((await awf('plugin', 'verify')).stdout).toMatch(/^clock\s+PASS\s+[0-9a-f]{64}\n$/);
    appendFileSync(join(installed(), 'plugin.yaml'), '# edited\n');
    const failed = await awf('plugin', 'verify', 'clock');
    expect(failed.status).toBe(1);
    expect(failed.stdout).toMatch(/^clock\s+FAIL\s+expected=[0-9a-f]{64} actual=[0-9a-f]{64}\n$/);
    expect(failed.stderr).toMatch(
      /^\[USER\.RELEASE\.CHECKSUM_MISMATCH\] 1 of 1 plugin\(s\) failed verification: clock FAIL/,
    );
    expect((await awf('plugin', 'verify', '--update')).stdout).toMatch(/^clock\s+UPDATED/);
    expect((await awf('plugin', 'verify')).status).toBe(0);
  });

  it('updates to the newest release; a second update has nothing to do', async () => {
    api.repos.get('acme/awf-plugin-clock')!.push(await release('v1.1.0', '1.1.0'));
    const r = await awf('plugin', 'update', 'clock');
    expect(r.stdout).toContain('Updated plugin "clock" from 1.0.0 to 1.1.0');
    expect((await awf('plugin', 'list')).stdout).toMatch(/clock\s+1\.1\.0\s+enabled\s+now/);
    expect((await awf('plugin', 'update', '--all')).stdout).toContain(
      'Plugin "clock" is already up to date (version 1.1.0)',
    );
  });

  it('refuses a release without an asset for this machine, and a second install without --force', async () => {
    const r = await awf('plugin', 'install', 'acme/awf-plugin-elsewhere');
    expect(r.stderr).toContain(
      `[USER.RELEASE.NO_ASSET] release v1.0.0 of acme/awf-plugin-elsewhere cannot be installed`,
    );
    expect(r.stderr).toContain(`it offers awf-plugin-clock_1.0.0_${other}.tar.gz`);
    expect(existsSync(join(project.dir, '.awf', 'plugins', 'elsewhere'))).toBe(false);
    const again = await awf('plugin', 'install', 'acme/awf-plugin-clock');
    expect(again.stderr).toMatch(/^\[USER\.PLUGIN\.TARGET_EXISTS\] plugin clock is already installed/);
  });

  it('searches plugins by topic, and still installs a plugin folder (verified like a release)', async () => {
    expect((await awf('plugin', 'search')).stdout).toBe(
      'NAME                   STARS  DESCRIPTION\nacme/awf-plugin-clock  7      The time\n',
    );
    const json = JSON.parse((await awf('-f', 'json', 'plugin', 'search', 'clock')).stdout);
    expect(json).toEqual({
      schema_version: 1,
      repositories: [expect.objectContaining({ full_name: 'acme/awf-plugin-clock' })],
    });
    const src = join(project.dir, 'src', 'tick');
    mkdirSync(src, { recursive: true });
    writeFileSync(join(src, 'plugin.yaml'), 'name: tick\nversion: 2.0.0\ncapabilities: [operations]\n');
    writeFileSync(join(src, 'awf-plugin-tick'), executable('2.0.0').replace("'clock'", "'tick'"), { mode: 0o755 });
    const r = await awf('plugin', 'install', './src/tick');
    expect(r.stdout).toContain('plugin tick 2.0.0 installed in');
    expect((await awf('plugin', 'verify', 'tick')).stdout).toMatch(/^tick\s+PASS/);
    const tock = join(project.dir, 'src', 'tock');
    mkdirSync(tock);
    writeFileSync(join(tock, 'plugin.yaml'), 'name: tock\nversion: 1.0.0\ncapabilities: [operations]\n');
    writeFileSync(join(tock, 'awf-plugin-tock'), executable('1.0.0').replace("'clock'", "'tock'"), { mode: 0o755 });
    expect((await awf('plugin', 'install', '--link', './src/tock')).status).toBe(0);
    const all = await awf('plugin', 'verify');
    expect([all.status, all.stdout]).toEqual([0, expect.stringMatching(/^tock\s+LINKED$/m)]);
    expect(existsSync(join(tock, 'state.json'))).toBe(false);
  });
});
