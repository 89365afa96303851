import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { REPO_ROOT, scratchDir } from '../support/cli';
import { INSTALLED_ENV, type InstalledPackage } from '../support/installed-package';
import { itUnless } from '../support/skip';
import { runAwfAsync } from '../support/telemetry-serve';

const own = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };

/** A package document as the npm registry serves it (`GET /<name>`), for the versions given. */
function packument(latest: string, versions: string[], ours = true) {
  return {
    _id: own.name,
    name: own.name,
    'dist-tags': { latest },
    versions: Object.fromEntries(
      versions.map((v) => [
        v,
        {
          name: own.name,
          version: v,
          bin: { awf: ours ? 'dist/main.js' : 'cli.js' },
          ...(ours ? { exports: { '.': './dist/index.js', './plugin-sdk': './dist/sdk/index.js' } } : {}),
          dist: { tarball: `http://127.0.0.1/${own.name}/-/${own.name}-${v}.tgz`, integrity: 'sha512-x' },
        },
      ]),
    ),
    time: Object.fromEntries(versions.map((v) => [v, '2026-01-01T00:00:00.000Z'])),
  };
}

/**
 * `awf upgrade` against a stand-in npm registry on 127.0.0.1 (npm_config_registry), from this
 * checkout's built CLI and, when jest's globalSetup installed the packed package, from a project.
 */
describe('awf upgrade (stand-in npm registry on 127.0.0.1)', () => {
  let server: Server;
  let doc: object | undefined;
  let env: NodeJS.ProcessEnv;
  const project = scratchDir();
  const awf = (...args: string[]) => runAwfAsync(args, { cwd: project.dir, env });
  const next = `${Number(own.version.split('.')[0])}.${Number(own.version.split('.')[1]) + 1}.0`;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const found = req.url === `/${own.name}` && doc;
      res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(found ? doc : { error: 'Not found' }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    env = { npm_config_registry: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    project.cleanup();
  });

  it('says awf is not published, rather than taking another package of the same name', async () => {
    doc = undefined;
    const none = await awf('upgrade', '--check');
    expect([none.status, none.stderr.split('\n')[0]]).toEqual([
      1,
      `[USER.UPGRADE.NOT_PUBLISHED] awf is not published on ${env.npm_config_registry} (it has no package "${own.name}")`,
    ]);
    doc = packument('9.0.0', ['9.0.0'], false);
    const other = await awf('upgrade', '--check');
    expect(other.stderr).toContain(`the package "${own.name}" on ${env.npm_config_registry} is another package`);
  });

  it('checks, refuses a version the registry lacks, and says how to upgrade a source checkout', async () => {
    doc = packument(own.version, [own.version]);
    expect((await awf('upgrade', '--check')).stdout).toBe(`awf is already up to date (version v${own.version})\n`);
    doc = packument(next, [own.version, next]);
    expect((await awf('upgrade', '--check')).stdout).toBe(`Update available: v${next} (current: v${own.version})\n`);
    const json = JSON.parse((await awf('-f', 'json', 'upgrade', '--check')).stdout);
    expect(json).toMatchObject({
      current: own.version,
      target: next,
      update_available: true,
      installed_as: 'checkout',
    });
    const missing = await awf('upgrade', '9.9.9');
    expect(missing.stderr).toMatch(/^\[USER\.UPGRADE\.NO_SUCH_VERSION\] awf has no version 9\.9\.9 .*\(latest: /);
    const r = await awf('upgrade');
    expect([r.status, r.stdout]).toEqual([
      0,
      `Update available: v${next} (current: v${own.version})\n` +
        `awf runs from a source checkout (${REPO_ROOT}): pull and build it, or install the published package:\n` +
        `  npm install -g ${own.name}@${next}\n`,
    ]);
  });

  const file = process.env[INSTALLED_ENV];
  const pkg = file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as InstalledPackage) : undefined;
  itUnless(
    pkg?.packageDir && !pkg.error
      ? undefined
      : 'jest globalSetup installed no packed package (npm pack + install failed)',
    'tells a project install the command for its package manager',
    async () => {
      doc = packument(next, [own.version, next]);
      const projectDir = join(pkg!.packageDir, '..', '..');
      const child = spawn(process.execPath, [join(pkg!.packageDir, 'dist/main.js'), 'upgrade'], {
        cwd: projectDir,
        env: { ...process.env, ...env },
      });
      let stdout = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      await once(child, 'close');
      expect(stdout).toContain(
        `awf is a dependency of ${projectDir} (npm); upgrade it there:\n  cd ${projectDir} && npm install awf@${next}`,
      );
    },
  );
});
