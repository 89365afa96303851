import { Injectable } from '@nestjs/common';
import { realpathSync } from 'node:fs';
import { lstat, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ToolFailure } from './tool-failure.error';

/** A path that passed the sandbox: `real` is what the tool must operate on, never the input. */
export interface SandboxedPath {
  real: string;
  exists: boolean;
}

/**
 * The one containment check every built-in uses (Bash's cwd included). The input is
 * resolved to a real path first — through every symlink, or through the nearest existing
 * parent for a path that does not exist yet — and only then compared with the real root on
 * a path-segment boundary. A string-prefix test would let `/w/proj2` pass for `/w/proj`.
 */
@Injectable()
export class PathSandbox {
  async resolve(input: string, root: string, label = 'path'): Promise<SandboxedPath> {
    if (input.length === 0) throw new ToolFailure(`${label} is empty; give a path inside ${root}`);
    if (input.includes('\0')) throw new ToolFailure(`${label} contains a NUL byte and was refused`);
    if (input.startsWith('~')) throw new ToolFailure(`${label} "${input}" starts with "~": home-directory expansion is not supported; give a path inside ${root}`);
    const lexical = isAbsolute(input) ? resolve(input) : resolve(root, input);
    const { real, exists } = await this.realOf(lexical, input, label);
    if (!isInside(real, root)) {
      const viaLink = isInside(lexical, root);
      throw new ToolFailure(viaLink
        ? `${label} "${input}" resolves through a symlink to a location outside the sandbox root ${root}; refused`
        : `${label} "${input}" is outside the sandbox root ${root}; refused`);
    }
    return { real, exists };
  }

  /** Re-check at use time, for paths derived after the first resolution (walk results, created dirs). */
  async stillInside(real: string, root: string): Promise<boolean> {
    try {
      return isInside(await realpath(real), root);
    } catch {
      return false;
    }
  }

  private async realOf(lexical: string, input: string, label: string): Promise<SandboxedPath> {
    try {
      // realpath(3) directly, as the promise API would on the thread pool: same answer, one
      // round trip to the pool fewer per call. Paths that do not exist take the walk below.
      return { real: realpathSync.native(lexical), exists: true };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') throw new ToolFailure(`${label} "${input}" is a symlink loop; refused`);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new ToolFailure(`${label} "${input}" cannot be resolved (${code})`);
    }
    // Walk up to the nearest existing ancestor; every missing component must be truly absent,
    // not a dangling symlink whose target (possibly outside) a write would create.
    const missing: string[] = [];
    let current = lexical;
    for (;;) {
      if (await isDanglingLink(current)) {
        throw new ToolFailure(`${label} "${input}" goes through a symlink whose target does not exist; refused`);
      }
      missing.unshift(basename(current));
      const parent = dirname(current);
      if (parent === current) throw new ToolFailure(`${label} "${input}" cannot be resolved`);
      current = parent;
      try {
        const base = await realpath(current);
        if (!(await stat(base)).isDirectory()) throw new ToolFailure(`${label} "${input}": a parent of it is a file, not a directory`);
        return { real: join(base, ...missing), exists: false };
      } catch (err) {
        if (err instanceof ToolFailure) throw err;
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOTDIR') throw new ToolFailure(`${label} "${input}": a parent of it is a file, not a directory`);
        if (code === 'ELOOP') throw new ToolFailure(`${label} "${input}" goes through a symlink loop; refused`);
        if (code !== 'ENOENT') throw new ToolFailure(`${label} "${input}" cannot be resolved (${code})`);
      }
    }
  }
}

/** True when `real` is `root` or lies below it, decided on whole path segments. */
export function isInside(real: string, root: string): boolean {
  const rel = relative(root, real);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

async function isDanglingLink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch {
    return false;
  }
}
