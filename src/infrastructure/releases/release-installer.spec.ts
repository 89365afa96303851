import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { ReleasesApi, tarGz } from '../../../test/support/releases-api.server';
import { GithubReleasesClient } from './github-releases.client';
import { readInstallState } from './install-state';
import { ReleaseInstaller, type ReleaseInstallRequest } from './release-installer';

describe('installing from a release (stand-in releases API on 127.0.0.1)', () => {
  let api: ReleasesApi;
  let dir: string;
  beforeEach(async () => {
    api = await new ReleasesApi().start();
    dir = mkdtempSync(join(tmpdir(), 'awf-release-'));
  });
  afterEach(async () => {
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const installer = (env: NodeJS.ProcessEnv = {}) =>
    new ReleaseInstaller(new GithubReleasesClient({ GITHUB_API_URL: api.url, ...env }));
  const request = (over: Partial<ReleaseInstallRequest> = {}): ReleaseInstallRequest => ({
    source: { repository: 'acme/awf-workflow-demo' },
    parentDir: join(dir, 'packs'),
    pickAsset: (assets) => assets.find((a) => a.name.endsWith('.tar.gz')) ?? 'no .tar.gz',
    accept: async (unpacked) => ({ name: 'demo', dir: unpacked }),
    exists: (target) => new AwfError(ErrorCodes.PACK_EXISTS, `exists at ${target}`),
    ...over,
  });
  const publish = async (tag: string, spec: Parameters<typeof tarGz>[0], prerelease = false) => {
    const releases = api.repos.get('acme/awf-workflow-demo') ?? [];
    releases.push({ tag, prerelease, assets: { 'demo.tar.gz': await tarGz(spec) } });
    api.repos.set('acme/awf-workflow-demo', releases);
  };
  const leftovers = () => (existsSync(join(dir, 'packs')) ? readdirSync(join(dir, 'packs')) : []);
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: AwfError) => e,
    );

  it('takes the highest stable release, checks its SHA-256, unpacks it and records state.json', async () => {
    await publish('v1.0.0', { files: { 'a.txt': 'one\n' } });
    await publish('v1.2.0', { files: { 'a.txt': 'two\n', 'bin/run': { body: '#!/bin/sh\n', mode: 0o755 } } });
    await publish('v2.0.0-rc.1', { files: { 'a.txt': 'rc\n' } }, true);
    const lines: string[] = [];
    const done = await installer().install(request({ progress: (l) => lines.push(l) }));
    expect(done).toMatchObject({ name: 'demo', version: '1.2.0', asset: 'demo.tar.gz' });
    expect(readFileSync(join(done.dir, 'a.txt'), 'utf8')).toBe('two\n');
    expect(statSync(join(done.dir, 'bin/run')).mode & 0o111).not.toBe(0);
    const state = readInstallState(done.dir)!;
    expect(state).toMatchObject({ name: 'demo', enabled: true });
    expect(state.source_data).toMatchObject({ repository: 'acme/awf-workflow-demo', version: '1.2.0' });
    expect(state.source_data.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(lines).toEqual([
      'Fetching releases for acme/awf-workflow-demo...',
      'Resolved version: 1.2.0',
      'Downloading demo.tar.gz...',
    ]);
    expect(leftovers()).toEqual(['demo']);
  });

  it('installs an exact version, and a pre-release only when asked', async () => {
    await publish('v1.0.0', { files: { 'a.txt': 'one\n' } });
    await publish('v2.0.0-rc.1', { files: { 'a.txt': 'rc\n' } }, true);
    const exact = await installer().install(
      request({ source: { repository: 'acme/awf-workflow-demo', version: '1.0.0' } }),
    );
    expect(exact.version).toBe('1.0.0');
    const pre = await installer().install(request({ prerelease: true, force: true }));
    expect(pre.version).toBe('2.0.0-rc.1');
  });

  it('sends GITHUB_TOKEN to the API only, never on the redirect to the download host', async () => {
    await publish('v1.0.0', { files: { 'a.txt': 'one\n' } });
    await installer({ GITHUB_TOKEN: 'ghp_secret' }).install(request());
    const api1 = api.seen.filter((s) => s.server === 'api');
    const cdn = api.seen.filter((s) => s.server === 'cdn');
    expect(api1.length).toBeGreaterThan(0);
    expect(api1.every((s) => s.authorization === 'Bearer ghp_secret')).toBe(true);
    expect(cdn.map((s) => s.path)).toEqual([
      '/cdn/acme/awf-workflow-demo/v1.0.0/checksums.txt',
      '/cdn/acme/awf-workflow-demo/v1.0.0/demo.tar.gz',
    ]);
    expect(cdn.every((s) => s.authorization === undefined)).toBe(true);
  });

  it('refuses an archive whose SHA-256 is not the one in checksums.txt, leaving nothing', async () => {
    await publish('v1.0.0', { files: { 'a.txt': 'one\n' } });
    api.repos.get('acme/awf-workflow-demo')![0].checksums = `${'0'.repeat(64)}  demo.tar.gz\n`;
    const err = await failure(installer().install(request()));
    expect(err?.code).toBe('USER.RELEASE.CHECKSUM_MISMATCH');
    expect(err?.message).toContain(`expected ${'0'.repeat(64)}`);
    expect(leftovers()).toEqual([]);
  });

  it.each([
    [
      'a symbolic link',
      { files: { 'a.txt': 'x' }, symlink: { name: 'link', to: '/etc/passwd' } },
      /"link" is a symbolic link/,
    ],
    ['a hard link', { files: { 'a.txt': 'x' }, hardlink: { name: 'b.txt', to: 'a.txt' } }, /"b.txt" is a hard link/],
    ['a ../ path', { files: { 'a.txt': 'x' }, rawPath: '../escaped.txt' }, /"..\/escaped.txt" climbs out/],
  ])('refuses an archive holding %s, writing nothing', async (_what, spec, message) => {
    await publish('v1.0.0', spec);
    const err = await failure(installer().install(request()));
    expect(err?.code).toBe('USER.RELEASE.UNSAFE_ARCHIVE');
    expect(err?.message).toMatch(message);
    expect(leftovers()).toEqual([]);
    expect(existsSync(join(dir, 'escaped.txt'))).toBe(false);
  });

  it('refuses an absolute path in the archive', async () => {
    const outside = join(dir, 'outside.txt');
    await publish('v1.0.0', { files: { 'a.txt': 'x' }, rawPath: outside });
    rmSync(outside);
    const err = await failure(installer().install(request()));
    expect(err?.message).toContain(`"${outside}" has an absolute path`);
    expect(err?.code).toBe('USER.RELEASE.UNSAFE_ARCHIVE');
    expect(existsSync(outside)).toBe(false);
    expect(leftovers()).toEqual([]);
  });

  it('refuses an archive that unpacks past the size cap', async () => {
    await publish('v1.0.0', { files: { 'big.bin': 'x'.repeat(64 * 1024) } });
    const err = await failure(installer().install(request({ maxUnpackedBytes: 32 * 1024 })));
    expect(err?.code).toBe('USER.RELEASE.UNSAFE_ARCHIVE');
    expect(err?.message).toContain('more than 32768 bytes');
    expect(leftovers()).toEqual([]);
  });

  it('removes the staging folder a killed install left behind, and no other', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    mkdirSync(join(dir, 'packs', '.awf-install-killed', 'unpacked'), { recursive: true });
    writeFileSync(join(dir, 'packs', '.awf-install-killed', 'owner.json'), JSON.stringify({ pid: dead, start: 1 }));
    mkdirSync(join(dir, 'packs', '.awf-install-alive'));
    writeFileSync(join(dir, 'packs', '.awf-install-alive', 'owner.json'), JSON.stringify({ pid: process.ppid }));
    await publish('v1.0.0', { files: { 'a.txt': 'one\n' } });
    await installer().install(request());
    expect(leftovers().sort()).toEqual(['.awf-install-alive', 'demo']);
  });

  it('keeps an existing install unless forced, and replaces it whole when forced', async () => {
    await publish('v1.0.0', { files: { 'old.txt': 'old\n' } });
    await installer().install(request());
    await publish('v1.1.0', { files: { 'new.txt': 'new\n' } });
    const err = await failure(installer().install(request()));
    expect(err?.code).toBe('USER.PACK.EXISTS');
    const done = await installer().install(request({ force: true, installedAt: '2026-01-01T00:00:00.000Z' }));
    expect(readdirSync(done.dir).sort()).toEqual(['new.txt', 'state.json']);
    expect(readInstallState(done.dir)!.source_data.installed_at).toBe('2026-01-01T00:00:00.000Z');
    expect(leftovers()).toEqual(['demo']);
  });

  it('says what to do: the API rate limited, a repository or version unknown, nothing answering', async () => {
    const code = async (req: ReleaseInstallRequest, inst = installer()) => (await failure(inst.install(req)))?.code;
    expect(await code(request({ source: { repository: 'acme/nope' } }))).toBe('USER.RELEASE.NOT_FOUND');
    await publish('v1.0.0', { files: { 'a.txt': 'x' } });
    const missing = await failure(
      installer().install(request({ source: { repository: 'acme/awf-workflow-demo', version: '9.9.9' } })),
    );
    expect(missing?.message).toBe('acme/awf-workflow-demo has no release 9.9.9');
    expect(missing?.hint).toBe('Published: v1.0.0.');
    api.rateLimited = true;
    const limited = await failure(installer().install(request()));
    expect(limited?.code).toBe('USER.RELEASE.RATE_LIMITED');
    expect(limited?.hint).toContain('GITHUB_TOKEN');
    const gone = await new ReleasesApi().start();
    const closedUrl = gone.url;
    await gone.stop();
    const err = await failure(installer({ GITHUB_API_URL: closedUrl }).install(request()));
    expect([err?.code, err?.message]).toEqual([
      'SYSTEM.RELEASE.UNREACHABLE',
      `cannot reach ${closedUrl}: ECONNREFUSED`,
    ]);
  });
});
