import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { processSettings } from '../../domain/settings/process-settings';

/**
 * Where plugins live, as AWF looks for them: `AWF_PLUGINS_PATH` alone when set (a
 * path-list, ':'-separated), else `./.awf/plugins` then `$XDG_DATA_HOME/awf/plugins`.
 * Directories that do not exist are dropped. `--skip-plugins` (`awf run`, passed on to the run's
 * mcp-serve processes as the same flag): none at all.
 */
export function pluginSearchDirs(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string[] {
  if (processSettings().skipPlugins) return [];
  const candidates = env.AWF_PLUGINS_PATH
    ? env.AWF_PLUGINS_PATH.split(':')
        .filter(Boolean)
        .map((d) => resolve(cwd, d))
    : [resolve(cwd, '.awf/plugins'), join(dataHome(env), 'awf', 'plugins')];
  return [...new Set(candidates)].filter((d) => existsSync(d) && statSync(d).isDirectory());
}

/** `plugins.json`, shared with AWF: `<XDG data>/awf/plugins/plugins.json`. */
export function pluginStateFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(dataHome(env), 'awf', 'plugins', 'plugins.json');
}

function dataHome(env: NodeJS.ProcessEnv): string {
  return env.XDG_DATA_HOME && env.XDG_DATA_HOME.startsWith('/')
    ? env.XDG_DATA_HOME
    : join(env.HOME || homedir(), '.local', 'share');
}
