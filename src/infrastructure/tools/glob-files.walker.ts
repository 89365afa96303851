import { lstatSync, readdirSync } from 'node:fs';
import { at, closeDir, openChildDir, type DirRef } from './beneath-root.resolver';
import { isSingleLinkFile } from './sandboxed-file.io';
import { ToolFailure } from './tool-failure.error';

export interface GlobbedFile {
  /** Relative to the walked directory, `/`-separated. */
  rel: string;
  mtimeMs: number;
}

/** Longest stretch of synchronous file-system work before other calls get the event loop. */
const SLICE_MS = 10;

/** An open directory of the walk, closed once it and everything queued below it are done. */
interface Frame {
  dir: DirRef;
  rel: string;
  depth: number;
  waiting: number;
  parent?: Frame;
}

/**
 * The regular files below `top` (an open directory, already checked inside the sandbox root)
 * whose path from it matches `pattern`, with their mtimes.
 *
 * The walk holds each directory by descriptor and reaches every child through it: a directory
 * is entered by an O_NOFOLLOW open (a symlink, or a directory swapped for one mid-walk, is
 * refused by the kernel, not followed), and each match is lstat'ed in the directory it was
 * listed in (its mtime, and the test that it is still a regular file of one link). Nothing is
 * checked by path afterwards, because nothing is reached by path. A directory stays open while
 * anything below it waits in the queue, so at most one descriptor per level is open.
 *
 * Synchronous calls, in slices of about 10 ms with a turn of the event loop between them: a
 * thread-pool round trip per directory and per file cost two to three times the CPU here.
 */
export async function globFiles(
  top: DirRef,
  pattern: string,
  skipNames: readonly string[],
  signal?: AbortSignal,
): Promise<GlobbedFile[]> {
  // Loaded on first use: mcp-serve's start should not pay for a matcher it may never need.
  const picomatch = require('picomatch') as typeof import('picomatch');
  // tinyglobby, which Glob used before, read `a//b` as `a/b`, `a/` as `a`, and a lone negated pattern as nothing.
  pattern = pattern.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');
  if (picomatch.scan(pattern).negated) return [];
  const isMatch = picomatch(pattern, { dot: true });
  const { start, maxDepth } = walkPlan(pattern, skipNames, picomatch.scan);
  const slicer = new Slicer(signal);
  const files: GlobbedFile[] = [];
  // The fixed start (`src` of `src/**` + `/*.ts`) is named, not walked to: each level must be a real directory.
  const first = descend(top, start);
  if (!first) return files;
  const pending: Array<{ parent: Frame; name: string }> = [];
  let frame: Frame | undefined = { dir: first, rel: start.join('/'), depth: start.length, waiting: 1 };
  try {
    while (frame) {
      await slicer.maybeYield();
      list(frame, skipNames, maxDepth, isMatch, files, pending);
      release(frame);
      frame = undefined;
      while (!frame && pending.length > 0) {
        const next = pending.pop()!;
        frame = enter(next.parent, next.name);
      }
    }
  } finally {
    // A cancelled walk: everything still open is closed, children before parents.
    if (frame) release(frame);
    for (const { parent } of pending.reverse()) release(parent);
  }
  return files;
}

function list(
  frame: Frame,
  skipNames: readonly string[],
  maxDepth: number,
  isMatch: (rel: string) => boolean,
  files: GlobbedFile[],
  pending: Array<{ parent: Frame; name: string }>,
): void {
  let entries;
  try {
    entries = readdirSync(at(frame.dir), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (skipNames.includes(entry.name)) continue;
    const childRel = frame.rel === '' ? entry.name : `${frame.rel}/${entry.name}`;
    if (entry.isFile()) {
      if (!isMatch(childRel)) continue;
      const stat = lstatSync(at(frame.dir, entry.name), { throwIfNoEntry: false });
      if (isSingleLinkFile(stat)) files.push({ rel: childRel, mtimeMs: stat!.mtimeMs });
    } else if (entry.isDirectory() && frame.depth + 1 < maxDepth) {
      frame.waiting++;
      pending.push({ parent: frame, name: entry.name });
    }
  }
}

function enter(parent: Frame, name: string): Frame | undefined {
  try {
    const dir = openChildDir(parent.dir, name);
    return {
      dir,
      rel: parent.rel === '' ? name : `${parent.rel}/${name}`,
      depth: parent.depth + 1,
      waiting: 1,
      parent,
    };
  } catch {
    // swapped for a symlink (ELOOP), removed, or unreadable since it was listed: not walked
    release(parent);
    return undefined;
  }
}

/**
 * `waiting` counts the frame's own listing plus each child still queued below it: the last
 * one done closes the directory and counts as one done for its parent.
 */
function release(frame: Frame): void {
  for (let f: Frame | undefined = frame; f; f = f.parent) {
    if (--f.waiting > 0) return;
    closeDir(f.dir);
  }
}

/** Opens `names` below `top` one level at a time, refusing symlinks; undefined if any is not a directory. */
function descend(top: DirRef, names: readonly string[]): DirRef | undefined {
  let dir: DirRef = { ...top, owned: false };
  for (const name of names) {
    try {
      const next = openChildDir(dir, name);
      closeDir(dir);
      dir = next;
    } catch {
      closeDir(dir);
      return undefined;
    }
  }
  return dir;
}

/**
 * Where the walk starts and how deep it goes: `src/**` + `/*.ts` needs only `src`, and
 * `*` + `/*.ts` nothing below the second level. Anything unusual (escapes, extglobs,
 * braces, `.` segments) keeps the whole walk; the matcher decides either way.
 */
export function walkPlan(
  pattern: string,
  skipNames: readonly string[],
  scanGlob: typeof import('picomatch').scan,
): { start: string[]; maxDepth: number } {
  const whole = { start: [], maxDepth: Infinity };
  const scan = scanGlob(pattern);
  if (scan.isExtglob || pattern.includes('\\')) return whole;
  const segments = pattern.split('/');
  if (segments.some((s) => s === '' || s === '.')) return whole;
  const start = !scan.isGlob ? segments.slice(0, -1) : scan.base !== '' ? scan.base.split('/') : [];
  if (start.some((s) => skipNames.includes(s))) return whole;
  const bounded = !pattern.includes('**') && !pattern.includes('{');
  return { start, maxDepth: bounded ? segments.length : Infinity };
}

/** Hands the event loop back every SLICE_MS, and stops the walk once the call is cancelled. */
class Slicer {
  private since = performance.now();

  constructor(private readonly signal?: AbortSignal) {}

  async maybeYield(): Promise<void> {
    if (this.signal?.aborted) throw new ToolFailure('Glob: cancelled');
    if (performance.now() - this.since < SLICE_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    this.since = performance.now();
  }
}
