import { Inject, Injectable, Optional } from '@nestjs/common';
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { PATH_GUARD, type PathAccess, type PathGuard } from '../../domain/ports/path-guard.port';
import type { ToolScope } from '../../domain/ports/tool-scope';
import { closeDir, openRoot, resolveBeneath, type Beneath, type DirRef } from './beneath-root.resolver';
import { ToolFailure } from './tool-failure.error';

/**
 * A path that passed the sandbox. `at` holds the open, checked directory the tool must work
 * in (by descriptor) and the name there; `real` is only for showing. `release` closes it.
 */
export interface SandboxedPath {
  real: string;
  rel: string;
  exists: boolean;
  at: Beneath;
  release(): void;
}

/** One descriptor per root per process, shared by every call: the root is opened by name once. */
const roots = new Map<string, DirRef>();

/**
 * The one containment check every built-in uses (Bash's cwd included). The input is made
 * root-relative lexically (an absolute spelling through a symlinked root is translated by
 * realpath), then walked from the root's descriptor one component at a time with O_NOFOLLOW
 * (beneath-root.resolver): a symlink is followed only while its target stays inside, and a
 * directory swapped for a symlink between the check and the use is refused, not followed.
 * The resolved path is then put to the PathGuard, when one is bound (policy rules).
 */
@Injectable()
export class PathSandbox {
  constructor(@Optional() @Inject(PATH_GUARD) private readonly guard?: PathGuard) {}

  resolve(input: string, scope: ToolScope, label: string, access: PathAccess, createParents = false): SandboxedPath {
    const root = scope.rootDir;
    const rel = this.relativeOf(input, root, label);
    const at = resolveBeneath(this.root(root), root, rel, label, input, createParents);
    const real = at.rel === '' ? root : join(root, at.rel);
    const denied = this.guard?.denial(at.rel, access, scope);
    if (denied !== undefined) {
      closeDir(at.dir);
      throw new ToolFailure(`${label} "${input}": ${denied}`);
    }
    return { real, rel: at.rel, exists: at.name === '' || at.stat !== undefined, at, release: () => closeDir(at.dir) };
  }

  /** The results a walk found (Glob, Grep) that the guard allows; all of them when none is bound. */
  allowed<T>(items: T[], relOf: (item: T) => string, access: PathAccess, scope: ToolScope): T[] {
    const guard = this.guard;
    return guard ? items.filter((item) => guard.denial(relOf(item), access, scope) === undefined) : items;
  }

  root(rootDir: string): DirRef {
    let dir = roots.get(rootDir);
    if (!dir) {
      dir = { ...openRoot(rootDir), owned: false };
      roots.set(rootDir, dir);
    }
    return dir;
  }

  private relativeOf(input: string, root: string, label: string): string {
    if (input.length === 0) throw new ToolFailure(`${label} is empty; give a path inside ${root}`);
    if (input.includes('\0')) throw new ToolFailure(`${label} contains a NUL byte and was refused`);
    if (input.startsWith('~'))
      throw new ToolFailure(
        `${label} "${input}" starts with "~": home-directory expansion is not supported; give a path inside ${root}`,
      );
    const lexical = isAbsolute(input) ? resolve(input) : resolve(root, input);
    if (isInside(lexical, root)) return relative(root, lexical).split(sep).join('/');
    // Another spelling of the root (root_dir given through a symlink): translated, then walked like any other.
    const translated = spelledThroughLink(lexical);
    if (translated !== undefined && isInside(translated, root)) return relative(root, translated).split(sep).join('/');
    throw new ToolFailure(`${label} "${input}" is outside the sandbox root ${root}; refused`);
  }
}

/** The real path of `lexical`'s nearest existing ancestor, with the missing rest appended. */
function spelledThroughLink(lexical: string): string | undefined {
  const missing: string[] = [];
  for (let current = lexical; ; current = dirname(current)) {
    try {
      return join(realpathSync.native(current), ...missing);
    } catch {
      if (dirname(current) === current) return undefined;
      missing.unshift(basename(current));
    }
  }
}

/** True when `real` is `root` or lies below it, decided on whole path segments. */
export function isInside(real: string, root: string): boolean {
  const rel = relative(root, real);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
