import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { homeDir } from '../../application/workflow/run/awf-dirs';

/** AWF's pack and workflow names: lower case, digits and "-", starting with a letter. */
export const PACK_NAME = /^[a-z][a-z0-9-]*$/;
/** Scope words of AWF's workflow ids (`local/x`, `global/x`): never a pack's name. */
export const RESERVED_PACK_NAMES = ['local', 'global', 'env'];

export interface PackDir {
  dir: string;
  scope: 'local' | 'global';
}

/**
 * Where installed workflow packs are looked for, first hit wins (AWF's order): the project's
 * `.awf/workflow-packs`, then `$XDG_CONFIG_HOME/.awf/…`, `$XDG_CONFIG_HOME/awf/…`,
 * `$XDG_DATA_HOME/awf/…` (where `--global` installs) and `~/.awf/…`.
 */
export function packDirs(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): PackDir[] {
  const home = homeDir(env);
  const config = env.XDG_CONFIG_HOME || join(home, '.config');
  const dirs = [
    projectPacksDir(cwd),
    join(config, '.awf', 'workflow-packs'),
    join(env.AWF_CONFIG_HOME || join(config, 'awf'), 'workflow-packs'),
    globalPacksDir(env),
    join(home, '.awf', 'workflow-packs'),
  ];
  return [...new Set(dirs)].map((dir, i) => ({ dir, scope: i === 0 ? 'local' : 'global' }));
}

export function projectPacksDir(cwd = process.cwd()): string {
  return resolve(cwd, '.awf', 'workflow-packs');
}

export function globalPacksDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_DATA_HOME || join(homeDir(env), '.local', 'share'), 'awf', 'workflow-packs');
}

/** The folder of installed pack `name` (also found by its repository name, `awf-workflow-<name>`). */
export function findPackDir(name: string, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()) {
  const short = name.replace(/^awf-workflow-/, '');
  if (!PACK_NAME.test(short)) return undefined;
  for (const { dir, scope } of packDirs(env, cwd)) {
    const candidate = join(dir, short);
    if (isDir(candidate)) return { dir: candidate, scope, name: short };
  }
  return undefined;
}

/**
 * `pack/workflow` → the pack's workflow file, when both are names and the pack is installed
 * (AWF splits a run target on its first `/` unless it is a file).
 */
export function packWorkflowFile(target: string, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()) {
  const m = /^([a-z][a-z0-9-]*)\/([a-z][a-z0-9_-]*)(\.yaml)?$/.exec(target);
  const pack = m ? findPackDir(m[1], env, cwd) : undefined;
  return pack && m ? join(pack.dir, 'workflows', `${m[2]}.yaml`) : undefined;
}

/**
 * The installed pack a workflow file belongs to: its name when the file is
 * `<a packs dir>/<pack>/workflows/<name>.yaml` (how `awf run pack/wf` finds it, and how a
 * resumed or called workflow of that pack is found again), else undefined.
 */
export function packOf(file: string, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string | undefined {
  const workflows = dirname(resolve(file));
  if (basename(workflows) !== 'workflows') return undefined;
  const packDir = dirname(workflows);
  const pack = basename(packDir);
  if (!PACK_NAME.test(pack)) return undefined;
  return packDirs(env, cwd).some(({ dir }) => dir === dirname(packDir)) ? pack : undefined;
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The workflows of the installed packs, as AWF lists them: `<pack>/<workflow>`, for each pack
 * (the first found of a name) whose `state.json` says it is enabled, from its manifest's list,
 * with the manifest's version (AWF's version of a pack's workflow).
 */
export function packWorkflows(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()) {
  const found: { name: string; file: string; pack: string; version?: string }[] = [];
  const seen = new Set<string>();
  for (const { dir } of packDirs(env, cwd)) {
    for (const pack of isDir(dir) ? readdirSync(dir).sort() : []) {
      if (!PACK_NAME.test(pack) || seen.has(pack) || !isDir(join(dir, pack))) continue;
      seen.add(pack);
      const folder = join(dir, pack);
      if (readJson(join(folder, 'state.json'))?.enabled !== true) continue;
      const manifest = parse(readText(join(folder, 'manifest.yaml')) ?? '') as {
        workflows?: unknown;
        version?: unknown;
      };
      const listed = manifest?.workflows;
      const version = manifest?.version === undefined ? undefined : String(manifest.version);
      for (const wf of Array.isArray(listed) ? listed.map(String).filter((w) => PACK_NAME.test(w)) : []) {
        const file = join(folder, 'workflows', `${wf}.yaml`);
        if (existsSync(file)) found.push({ name: `${pack}/${wf}`, file, pack, version });
      }
    }
  }
  return found;
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function readJson(file: string): { enabled?: unknown } | undefined {
  try {
    return JSON.parse(readText(file) ?? '') as { enabled?: unknown };
  } catch {
    return undefined;
  }
}
