import { closeSync, constants, lstatSync, mkdirSync, openSync, readlinkSync, type Stats } from 'node:fs';
import { isAbsolute, normalize, relative, sep } from 'node:path';
import { ToolFailure } from './tool-failure.error';

/**
 * An open directory inside the root, and its root-relative path ('' for the root). Every name
 * below it is reached through the descriptor, never through the path: what was checked is
 * what is used, whatever is renamed or swapped for a symlink meanwhile.
 */
export interface DirRef {
  fd: number;
  rel: string;
  /** The root's own descriptor is shared and never closed by a walk. */
  owned: boolean;
}

/** Where a path ended up: the checked directory holding it, and its name there. */
export interface Beneath {
  dir: DirRef;
  /** '' when the path is `dir` itself (the root, or a `..` in a symlink's target). */
  name: string;
  rel: string;
  /** lstat of the name in `dir`; undefined when it does not exist. */
  stat?: Stats;
}

/**
 * On Linux `/proc/self/fd/<fd>/<name>` looks `name` up in the directory the descriptor holds,
 * as openat(2) would: Node has no openat, but every fs call takes this path. Elsewhere there
 * is no such path, and the directory's real path stands in (not race-free; docs/tools.md).
 */
const VIA_PROC = process.platform === 'linux';
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
/** Linux's own limit on symlinks followed in one lookup. */
const MAX_HOPS = 40;
const realPaths = new Map<number, string>();

export function at(dir: DirRef, name = ''): string {
  if (VIA_PROC) return name === '' ? `/proc/self/fd/${dir.fd}` : `/proc/self/fd/${dir.fd}/${name}`;
  const base = realPaths.get(dir.fd) ?? '/';
  return name === '' ? base : `${base === '/' ? '' : base}/${name}`;
}

/** Opens the root itself: the one path taken by name, once; everything else is below it. */
export function openRoot(rootReal: string): DirRef {
  const fd = openSync(rootReal, constants.O_RDONLY | constants.O_DIRECTORY);
  if (!VIA_PROC) realPaths.set(fd, rootReal);
  return { fd, rel: '', owned: true };
}

/**
 * The root as a walk must see it: shared, so `resolveBeneath` never closes it (its caller
 * does, once). Handing the owned root to a walk that goes below it closed the root twice.
 */
export function borrowed(root: DirRef): DirRef {
  return { ...root, owned: false };
}

export function closeDir(dir: DirRef): void {
  if (!dir.owned) return;
  realPaths.delete(dir.fd);
  closeSync(dir.fd);
}

/** Opens `name` in `dir` as a directory, refusing a symlink (ELOOP) rather than following it. */
export function openChildDir(dir: DirRef, name: string): DirRef {
  const fd = openSync(at(dir, name), DIR_FLAGS);
  const rel = dir.rel === '' ? name : name === '' ? dir.rel : `${dir.rel}/${name}`;
  if (!VIA_PROC) realPaths.set(fd, `${at(dir)}/${name}`.replace(/^\/\//, '/'));
  return { fd, rel, owned: true };
}

/** A second descriptor of the same directory (`.` through the first), owned by the caller. */
export function reopenDir(dir: DirRef): DirRef {
  const fd = openSync(at(dir, '.'), DIR_FLAGS);
  if (!VIA_PROC) realPaths.set(fd, at(dir));
  return { fd, rel: dir.rel, owned: true };
}

interface Step {
  name: string;
  /** Came out of a symlink's target: a missing name here means a dangling link. */
  viaLink: boolean;
  /** Created by this walk already: missing again means someone removes it as fast as we make it. */
  made?: boolean;
}

/**
 * Walks `rel` (root-relative, already free of `..` from the caller's input) one component at
 * a time from `root`, the way openat2(RESOLVE_IN_ROOT) would but refusing instead of clamping:
 * each directory is opened with O_NOFOLLOW, a symlink is read and its target walked from the
 * directory it sits in (or from the root, for an absolute target inside it), and a `..` never
 * climbs above the root. `createParents` makes missing directories on the way (mkdir, then
 * the same O_NOFOLLOW open, so a symlink swapped in after the mkdir is refused too).
 */
export function resolveBeneath(
  root: DirRef,
  rootReal: string,
  rel: string,
  label: string,
  shown: string,
  createParents = false,
): Beneath {
  const steps: Step[] = toSteps(rel, false);
  const stack: DirRef[] = [root];
  let hops = 0;
  const follow = (top: DirRef, name: string): void => {
    if (++hops > MAX_HOPS) throw new ToolFailure(`${label} "${shown}" is a symlink loop; refused`);
    const target = readlinkSync(at(top, name));
    if (!isAbsolute(target)) {
      steps.push(...toSteps(target, true));
      return;
    }
    const inRoot = relative(rootReal, normalize(target));
    if (inRoot === '..' || inRoot.startsWith(`..${sep}`) || isAbsolute(inRoot)) throw outside(label, shown);
    while (stack.length > 1) closeDir(stack.pop()!);
    steps.push(...toSteps(inRoot, true));
  };
  try {
    for (let step = steps.pop(); step; step = steps.pop()) {
      const { name, viaLink } = step;
      const top = stack[stack.length - 1];
      if (name === '' || name === '.') {
        if (steps.length === 0) return done(stack, { dir: top, name: '', rel: top.rel });
        continue;
      }
      if (name === '..') {
        if (stack.length === 1) throw outside(label, shown);
        closeDir(stack.pop()!);
        if (steps.length === 0)
          return done(stack, { dir: stack[stack.length - 1], name: '', rel: stack[stack.length - 1].rel });
        continue;
      }
      const childRel = top.rel === '' ? name : `${top.rel}/${name}`;
      if (steps.length === 0) {
        const stat = lstatSync(at(top, name), { throwIfNoEntry: false });
        if (stat?.isSymbolicLink()) {
          follow(top, name);
          continue;
        }
        if (!stat && viaLink) throw dangling(label, shown);
        return done(stack, { dir: top, name, rel: childRel, stat });
      }
      try {
        stack.push(openChildDir(top, name));
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        // O_DIRECTORY|O_NOFOLLOW on a symlink fails with ENOTDIR or ELOOP: lstat tells a link from a file.
        const isLink =
          code === 'ELOOP' ||
          (code === 'ENOTDIR' && lstatSync(at(top, name), { throwIfNoEntry: false })?.isSymbolicLink());
        if (isLink) follow(top, name);
        else if (code === 'ENOTDIR')
          throw new ToolFailure(`${label} "${shown}": a parent of it is a file, not a directory`);
        else if (code === 'ENOENT' && viaLink) throw dangling(label, shown);
        else if (code === 'ENOENT' && createParents && !step.made) {
          makeDir(top, name, label, shown);
          steps.push({ ...step, made: true });
        } else if (code === 'ENOENT') {
          const rest = [name, ...steps.reverse().map((s) => s.name)].join('/');
          return done(stack, { dir: top, name: rest, rel: top.rel === '' ? rest : `${top.rel}/${rest}` });
        } else throw cannotResolve(label, shown, code);
      }
    }
    return done(stack, { dir: stack[stack.length - 1], name: '', rel: stack[stack.length - 1].rel });
  } catch (err) {
    for (const dir of stack) closeDir(dir);
    if (err instanceof ToolFailure) throw err;
    throw cannotResolve(label, shown, (err as NodeJS.ErrnoException).code);
  }
}

/** Closes every directory of the walk but the one the answer needs (and the shared root). */
function done(stack: DirRef[], found: Beneath): Beneath {
  for (const dir of stack) if (dir !== found.dir) closeDir(dir);
  return found;
}

function toSteps(path: string, viaLink: boolean): Step[] {
  return path
    .split('/')
    .reverse()
    .map((name) => ({ name, viaLink }));
}

function makeDir(dir: DirRef, name: string, label: string, shown: string): void {
  try {
    mkdirSync(at(dir, name));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST') throw new ToolFailure(`${label} "${shown}": cannot create its directory (${code})`);
  }
}

function dangling(label: string, shown: string): ToolFailure {
  return new ToolFailure(`${label} "${shown}" goes through a symlink whose target does not exist; refused`);
}

function outside(label: string, shown: string): ToolFailure {
  return new ToolFailure(
    `${label} "${shown}" resolves through a symlink to a location outside the sandbox root; refused`,
  );
}

function cannotResolve(label: string, shown: string, code: string | undefined): ToolFailure {
  if (code === 'EACCES' || code === 'EPERM') return new ToolFailure(`${label} "${shown}": permission denied`);
  return new ToolFailure(`${label} "${shown}" cannot be resolved (${code})`);
}

/**
 * The directory a resolved path names, open (Glob's and Grep's base, Bash's cwd); undefined
 * when it is not a directory. A symlink swapped in since the walk is refused, not followed.
 */
export function openResolvedDir(found: Beneath, shown: string): DirRef | undefined {
  if (found.name === '') return { ...found.dir, owned: false };
  if (found.stat && !found.stat.isDirectory()) return undefined;
  try {
    return openChildDir(found.dir, found.name);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR' || code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw new ToolFailure(`${shown} became a symlink after it was checked; refused`);
    throw cannotResolve('path', shown, code);
  }
}
