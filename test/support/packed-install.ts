import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './cli';

/** A scratch project into which the tarball of `npm pack` was installed, as a user installs it. */
export interface PackedInstall {
  /** The scratch project (has package.json and node_modules/awf). */
  project: string;
  /** The tarball `npm pack` wrote. */
  tarball: string;
  /** The paths inside the tarball, as `npm pack --json` listed them. */
  files: string[];
  cleanup: () => void;
}

/**
 * `npm pack` of this (already built) checkout, then a plain `npm install <tgz>` into a new project:
 * npm's default policy, so no install script of any dependency runs (npm 11), exactly what a user
 * gets. `--ignore-scripts` on pack only skips our prepack rebuild: `npm test` has just built dist/.
 * Dependencies come from npm's cache when it has them. Takes a minute: one per jest run.
 */
export function packAndInstall(): PackedInstall {
  const root = mkdtempSync(join(tmpdir(), 'awf-packed-'));
  const cleanup = (): void => rmSync(root, { recursive: true, force: true });
  try {
    const packed = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', root], REPO_ROOT);
    const [info] = JSON.parse(packed) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const project = join(root, 'project');
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'awf-user-project', version: '1.0.0', private: true }),
    );
    npm(['install', '--no-audit', '--no-fund', '--prefer-offline', join(root, info.filename)], project);
    return { project, tarball: join(root, info.filename), files: info.files.map((f) => f.path), cleanup };
  } catch (err) {
    cleanup();
    throw err;
  }
}

const NPM_TIMEOUT_MS = 400_000;

function npm(args: string[], cwd: string): string {
  const r = spawnSync('npm', args, {
    cwd,
    encoding: 'utf8',
    timeout: NPM_TIMEOUT_MS,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  // npm answers the timeout's SIGTERM by exiting 1 with nothing printed: say which it was.
  if ((r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT')
    throw new Error(`npm ${args[0]} did not finish in ${NPM_TIMEOUT_MS / 1000} s (a loaded machine, or no registry)`);
  if (r.status !== 0)
    throw new Error(
      `npm ${args[0]} exited ${r.status ?? r.signal}: ` +
        (r.stderr || r.stdout).trim().split('\n').slice(-5).join(' | '),
    );
  return r.stdout;
}

/** Every package installed under `project`, nested ones included, as `name` or `@scope/name`. */
export function installedPackages(project: string): string[] {
  const paths = npm(['ls', '--all', '--parseable'], project).trim().split('\n');
  return [
    ...new Set(
      paths
        .filter((p) => p.includes('node_modules'))
        .map((p) => p.slice(p.lastIndexOf('node_modules/') + 'node_modules/'.length)),
    ),
  ];
}
