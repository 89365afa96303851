import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import {
  at,
  borrowed,
  closeDir,
  openChildDir,
  openResolvedDir,
  openRoot,
  reopenDir,
  resolveBeneath,
  type DirRef,
} from '../beneath-root.resolver';
import { isSingleLinkFile } from '../sandboxed-file.io';
import { ToolFailure } from '../tool-failure.error';
import type { GrepFileHit, GrepRequest } from './grep-query.model';

/** The searched file or directory, open: what ripgrep is handed (as its fd 3), and what hits are re-checked against. */
export interface OpenTarget {
  fd: number;
  /** The directory, for re-checking hits below it; undefined for a single file. */
  dir?: DirRef;
  close(): void;
}

/** Resolves the request's target from the root's descriptor again, as the JS engine does, and opens it. */
export function openGrepTarget(request: GrepRequest): OpenTarget {
  const root = openRoot(request.root);
  try {
    const found = resolveBeneath(borrowed(root), request.root, request.targetRel, 'path', request.targetRel);
    try {
      if (request.targetIsDir) {
        const dir = openResolvedDir(found, request.targetRel);
        if (!dir) throw new ToolFailure(`Grep: ${request.targetRel} changed while it was searched; refused`);
        // A DirRef borrowed from the walk (the root itself) is reopened, so it outlives the walk's close.
        const owned = dir.owned ? dir : reopenDir(dir);
        return { fd: owned.fd, dir: owned, close: () => closeDir(owned) };
      }
      const fd = openSync(at(found.dir, found.name), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      if (!isSingleLinkFile(fstatSync(fd))) {
        closeSync(fd);
        throw new ToolFailure(`Grep: ${request.targetRel} changed while it was searched; refused`);
      }
      return { fd, close: () => closeSync(fd) };
    } finally {
      if (found.dir.fd !== root.fd) closeDir(found.dir);
    }
  } catch (err) {
    if (err instanceof ToolFailure) throw err;
    throw new ToolFailure(
      `Grep: ${request.targetRel} cannot be opened (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    );
  } finally {
    closeDir(root);
  }
}

/**
 * ripgrep walks below the directory it was handed by path, and a directory swapped for a
 * symlink mid-walk would be followed. So every hit is taken again from awf's side: reached
 * through descriptors with O_NOFOLLOW from the same open directory, read (a regular file of
 * one link, within the size cap), and kept only if that content bears it out — every line
 * ripgrep printed is there, or, for the count records, the pattern matches it. A hit read
 * through a swapped directory shows nothing the inside file does not hold.
 */
export function recheckHit(
  dir: DirRef,
  rel: string,
  hit: GrepFileHit,
  request: GrepRequest,
  matches?: (text: string) => boolean,
): boolean {
  const names = rel.split('/');
  const name = names.pop()!;
  let current: DirRef = { ...dir, owned: false };
  try {
    for (const part of names) {
      const next = openChildDir(current, part);
      closeDir(current);
      current = next;
    }
    const { readText } = require('./js-grep.search') as typeof import('./js-grep.search');
    const text = readText(current, name, request.maxFileBytes);
    if (text === undefined) return false;
    if (matches) return matches(text);
    const lines = text.split('\n');
    return hit.lines.every((l) => lines[l.line - 1]?.replace(/\r$/, '') === l.text);
  } catch {
    return false;
  } finally {
    closeDir(current);
  }
}
