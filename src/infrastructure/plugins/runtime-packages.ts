import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/**
 * What of a plugin folder's `node_modules` a copy keeps: the packages its package.json names in
 * `dependencies`, `optionalDependencies` and `peerDependencies`, and theirs, each found as Node
 * finds it (the nearest `node_modules` upwards from the requiring package's real path, within
 * the folder). devDependencies, whatever only they need, `.bin` links and npm's hidden lockfile
 * are left out. Returns a filter for `cpSync`, or undefined (copy everything) for a folder with
 * no package.json or no node_modules, such as a Go plugin's.
 */
export function runtimeFilter(root: string): ((path: string) => boolean) | undefined {
  if (!existsSync(join(root, 'package.json')) || !existsSync(join(root, 'node_modules'))) return undefined;
  const kept = new Set<string>();
  const visit = (pkgDir: string): void => {
    for (const name of dependencyNames(pkgDir)) {
      const found = locate(name, realOrSelf(pkgDir), root);
      if (found && !kept.has(found)) {
        kept.add(found);
        visit(found);
      }
    }
  };
  visit(root);
  // A directory on the way to a kept package is made, or cpSync would not descend into it.
  const onTheWay = new Set<string>();
  for (const dir of kept) for (let d = dirname(dir); d.length > root.length; d = dirname(d)) onTheWay.add(d);
  const inKept = (path: string): boolean => {
    for (let d = path; d.length > root.length; d = dirname(d)) if (kept.has(d)) return true;
    return false;
  };
  return (path) => {
    const parts = relative(root, path).split(sep);
    if (!parts.includes('node_modules')) return true;
    return inKept(path) || onTheWay.has(path);
  };
}

function dependencyNames(pkgDir: string): string[] {
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    return [];
  }
  const names = (key: string) => Object.keys((manifest[key] as Record<string, string> | undefined) ?? {});
  return [...names('dependencies'), ...names('optionalDependencies'), ...names('peerDependencies')];
}

/** `<dir>/node_modules/<name>` for the nearest `dir` from `from` upwards that has it, inside `root`. */
function locate(name: string, from: string, root: string): string | undefined {
  const realRoot = realOrSelf(root);
  for (let dir = from; dir.startsWith(realRoot); dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    // The filter sees paths under the folder as given, not its real path.
    if (existsSync(join(candidate, 'package.json'))) return join(root, relative(realRoot, candidate));
    if (dir === realRoot) break;
  }
  return undefined;
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
