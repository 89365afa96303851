import { dirname, join, resolve } from 'node:path';
import type { FileProbe } from '../../../domain/ports/file-probe.port';
import type { AwfDirs } from '../run/awf-dirs';

/** Only these global dirs have workflow-local counterparts (`<dir of the workflow's dir>/scripts|prompts`). */
const LOCAL_KINDS = [
  ['scripts_dir', 'scripts'],
  ['prompts_dir', 'prompts'],
] as const;

type Kind = (typeof LOCAL_KINDS)[number][1];

/**
 * Where a path ends inside a command line: AWF stops at a space, a quote, `|` or `&`; awf also at
 * any whitespace and at `;`, `(`, `)`, `<`, `>` and a backquote, so `cat <path>; …` is rewritten too.
 */
const PATH_END = /[\s"'|&;()<>`]/;

/**
 * The directories that stand in for the global `scripts_dir` / `prompts_dir`, first found wins
 * (AWF's app/external_file.go). A workflow of an installed pack (`dirs.pack_name`) looks first
 * for the user's override `.awf/<kind>/<pack>/` in the nearest directory above the pack root
 * (AWF: so a pack in the project's `.awf/workflow-packs` finds the project's `.awf`), then in the
 * project itself (`cwd`; AWF's docs promise it, its code misses it for a `--global` pack). Every
 * workflow then has `<dir of its workflows dir>/<kind>/`: the project's `.awf/<kind>/` for
 * `.awf/workflows/x.yaml`, the pack's own `<pack_root>/<kind>/` for a pack's workflow.
 */
export function localDirs(kind: Kind, sourceDir: string, dirs: AwfDirs, cwd?: string): string[] {
  const { overrides, own } = tiers(kind, sourceDir, dirs, cwd);
  return [...new Set([...overrides, own])];
}

function tiers(kind: Kind, sourceDir: string, dirs: AwfDirs, cwd?: string) {
  const root = dirname(resolve(sourceDir));
  const overrides: string[] = [];
  const pack = dirs.pack_name;
  if (pack) {
    for (let dir = root; ; dir = dirname(dir)) {
      overrides.push(join(dir, '.awf', kind, pack));
      if (dirname(dir) === dir) break;
    }
    if (cwd) overrides.push(join(resolve(cwd), '.awf', kind, pack));
  }
  return { overrides, own: join(root, kind), project: cwd && pack ? overrides.at(-1) : overrides[0] };
}

/** `path` as `<global dir>/<rest>` of scripts_dir or prompts_dir, else undefined. */
function underGlobal(path: string, dirs: AwfDirs): { kind: Kind; rest: string } | undefined {
  for (const [key, kind] of LOCAL_KINDS) {
    const global = dirs[key];
    if (global && path.startsWith(`${global}/`)) return { kind, rest: path.slice(global.length + 1) };
  }
  return undefined;
}

/**
 * Where a `<global scripts_dir|prompts_dir>/<rest>` path is looked for, as a "not found" names
 * it: the project's override (for a pack's workflow; the walk above the pack root is AWF's way
 * to reach it, not named), the workflow's own dir, the global path; just `[path]` for any other.
 */
export function placesFor(path: string, sourceDir: string, dirs: AwfDirs, cwd?: string): string[] {
  const under = underGlobal(path, dirs);
  if (!under) return [path];
  const { project, own } = tiers(under.kind, sourceDir, dirs, cwd);
  return [...(project ? [join(project, under.rest)] : []), join(own, under.rest), path];
}

/**
 * AWF's local-before-global rule for one path: `<global scripts_dir|prompts_dir>/<rest>` becomes
 * the first local copy that exists (see localDirs), else stays the global path.
 */
export function localOverGlobal(
  path: string,
  sourceDir: string,
  dirs: AwfDirs,
  files: FileProbe,
  cwd?: string,
): string {
  return placesFor(path, sourceDir, dirs, cwd).find((p) => files.exists(p)) ?? path;
}

/**
 * The same rule inside a rendered `command` or `dir`: each occurrence of a global path is
 * replaced by its first local copy that exists; a `dir` that is exactly the global dir becomes
 * the first local dir that exists. (AWF picks one local dir for a pack's whole command, so a
 * file missing from an existing override dir stays global there; awf looks per file.)
 */
export function rewriteAwfPaths(
  text: string,
  sourceDir: string,
  dirs: AwfDirs,
  files?: FileProbe,
  cwd?: string,
): string {
  if (!files) return text;
  let out = text;
  for (const [key, kind] of LOCAL_KINDS) {
    const global = dirs[key];
    if (!global) continue;
    if (out === global) {
      out = localDirs(kind, sourceDir, dirs, cwd).find((d) => files.exists(d)) ?? out;
      continue;
    }
    const prefix = `${global}/`;
    let result = '';
    let at = 0;
    for (let i = out.indexOf(prefix); i !== -1; i = out.indexOf(prefix, at)) {
      const rest = out.slice(i + prefix.length);
      const end = rest.search(PATH_END);
      const suffix = end === -1 ? rest : rest.slice(0, end);
      if (!suffix) break;
      result += out.slice(at, i) + localOverGlobal(prefix + suffix, sourceDir, dirs, files, cwd);
      at = i + prefix.length + suffix.length;
    }
    out = result + out.slice(at);
  }
  return out;
}
