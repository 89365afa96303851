import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AWF_MAIN, REPO_ROOT } from './cli';

/**
 * Where one Markdown file's examples run, in order: a scratch project in which awf is
 * installed (node_modules/awf is a link to this checkout and `awf` is on PATH, so `npx awf`
 * and `require('awf')` resolve as in a user's project), holding a copy of `examples/`. HOME
 * and the XDG directories point inside it, so no example touches the user's own
 * configuration. Only awf itself is linked, never a directory of this checkout's
 * node_modules: a package manager run by an example could prune through such a link.
 */
export interface DocProject {
  dir: string;
  env: NodeJS.ProcessEnv;
  cleanup: () => void;
}

export function docProject(): DocProject {
  const dir = mkdtempSync(join(tmpdir(), 'awf-docs-'));
  cpSync(join(REPO_ROOT, 'examples'), join(dir, 'examples'), {
    recursive: true,
    filter: (src) => !src.includes('/node_modules'),
  });
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '.bin'), { recursive: true });
  symlinkSync(REPO_ROOT, join(modules, 'awf'));
  const shim = join(modules, '.bin', 'awf');
  writeFileSync(shim, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(AWF_MAIN)} "$@"\n`, {
    mode: 0o755,
  });
  const xdg = join(dir, '.xdg');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${join(modules, '.bin')}:${process.env.PATH ?? ''}`,
    HOME: dir,
    XDG_CONFIG_HOME: join(xdg, 'config'),
    XDG_DATA_HOME: join(xdg, 'data'),
    XDG_STATE_HOME: join(xdg, 'state'),
    AWF_LOG_LEVEL: 'warn',
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
  };
  delete env.AWF_WORKFLOWS_PATH;
  delete env.AWF_PLUGINS_PATH;
  return { dir, env, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
