import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** Where jest's globalSetup records the package it packed and installed (launch-paths.ts reads it). */
export const INSTALLED_ENV = 'AWF_TEST_INSTALLED_PACKAGE';

export interface InstalledPackage {
  /** `<scratch project>/node_modules/awf`. */
  packageDir: string;
  /** Why there is none, when pack or install failed. */
  error?: string;
}

const REPO_ROOT = resolve(__dirname, '../..');

/** What the tarball is made of: every file of dist/ (size and mtime) and package.json. */
function buildKey(): string {
  const hash = createHash('sha256');
  const dist = join(REPO_ROOT, 'dist');
  for (const file of (readdirSync(dist, { recursive: true }) as string[]).sort()) {
    const info = statSync(join(dist, file));
    if (info.isFile()) hash.update(`${file}:${info.size}:${info.mtimeMs}\n`);
  }
  return hash
    .update(readFileSync(join(REPO_ROOT, 'package.json')))
    .digest('hex')
    .slice(0, 12);
}

const short = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex').slice(0, 8);

const run = (cmd: string, args: string[], cwd: string): string =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 10 * 60_000 });

/**
 * `npm pack` of the built tree, installed into a scratch project as a user would
 * (`npm install ./awf-x.tgz`). The project lives as long as package-lock.json does, so a new
 * build only replaces awf in it; the same build is reused as it is. Scripts are not run: the
 * tree is built already (`npm test` builds first), and awf's dependencies need none of theirs.
 */
export function installPackedPackage(): InstalledPackage {
  const prefix = `awf-installed-${short(REPO_ROOT)}-`;
  const dir = join(tmpdir(), `${prefix}${short(readFileSync(join(REPO_ROOT, 'package-lock.json')))}`);
  const project = join(dir, 'project');
  const packageDir = join(project, 'node_modules', 'awf');
  const key = buildKey();
  const stamp = join(dir, 'installed-build');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === key) return { packageDir };
  for (const old of readdirSync(tmpdir()).filter((d) => d.startsWith(prefix) && join(tmpdir(), d) !== dir))
    rmSync(join(tmpdir(), old), { recursive: true, force: true });
  try {
    rmSync(stamp, { force: true });
    mkdirSync(project, { recursive: true });
    if (!existsSync(join(project, 'package.json')))
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'awf-install-check', private: true }));
    const tarball = run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], REPO_ROOT)
      .trim()
      .split('\n')
      .pop()!;
    run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', join(dir, tarball)],
      project,
    );
    writeFileSync(stamp, key);
    return { packageDir };
  } catch (err) {
    const e = err as { message: string; stderr?: string };
    return {
      packageDir,
      error: `${e.message.split('\n')[0]} ${(e.stderr ?? '').trim().split('\n').slice(-2).join(' | ')}`,
    };
  }
}
