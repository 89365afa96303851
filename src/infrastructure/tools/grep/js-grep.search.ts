import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import picomatch from 'picomatch';
import {
  at,
  borrowed,
  closeDir,
  openResolvedDir,
  openRoot,
  resolveBeneath,
  type Beneath,
  type DirRef,
} from '../beneath-root.resolver';
import { isSingleLinkFile } from '../sandboxed-file.io';
import { walkFiles } from './file-tree.walker';
import {
  entriesOf,
  type GrepFileHit,
  type GrepLine,
  type GrepOutcome,
  type GrepQuery,
  type GrepRequest,
} from './grep-query.model';
import { SKIPPED_NAMES } from '../skipped-names';

/** Thrown for a pattern JavaScript cannot compile; the tool reports it as an invalid regex. */
export class GrepPatternError extends Error {}

/**
 * The JS engine: the same files, order and lines as ripgrep with the flags the ripgrep
 * engine passes. Synchronous on purpose: it runs inside a worker that the caller can
 * terminate, which is the only way to stop a catastrophically backtracking regex.
 */
export function searchFiles(request: GrepRequest): GrepOutcome {
  const matcher = compilePattern(request.query);
  const accepts = fileFilter(request.query);
  // Walked to again from the root's descriptor (this may run in a worker, which has its own):
  // the same race-free resolution the tool did, so nothing is reached by path.
  const root = openRoot(request.root);
  let found: Beneath | undefined;
  let base: DirRef | undefined;
  try {
    // Inside the try: a target that changed since the tool checked it throws here, and the
    // root's descriptor must be closed then too (a worker's descriptors are the process's).
    found = resolveBeneath(borrowed(root), request.root, request.targetRel, 'path', request.targetRel);
    base = request.targetIsDir ? openResolvedDir(found, request.targetRel) : undefined;
    const files = base
      ? walkFiles(base, SKIPPED_NAMES)
      : [{ dir: found.dir, name: found.name, rel: found.name, explicit: true as const }];
    const hits: GrepFileHit[] = [];
    let entries = 0;
    for (const file of files) {
      if (!('explicit' in file) && !accepts(file.rel)) continue;
      const text = readText(file.dir, file.name, request.maxFileBytes);
      if (text === undefined) continue;
      const hit = searchText(base ? `${request.target}/${file.rel}` : request.target, text, matcher, request.query);
      if (!hit) continue;
      hits.push(hit);
      entries += entriesOf(hit, request.mode);
      if (entries > request.stopAfter) return { hits, stopped: true };
    }
    return { hits, stopped: false };
  } finally {
    // Each descriptor once: the resolved directory may be the root's own descriptor under
    // another reference, and a second close could close a descriptor another thread just opened.
    const closed = new Set<number>();
    for (const dir of [base, found?.dir, root]) {
      if (!dir || !dir.owned || closed.has(dir.fd)) continue;
      closed.add(dir.fd);
      closeDir(dir);
    }
  }
}

export function compilePattern(query: GrepQuery): RegExp {
  // dotAll everywhere: in Rust's regex `.` matches `\r`; only `\n` ends a line.
  const flags = `s${query.ignoreCase ? 'i' : ''}${query.multiline ? 'gm' : ''}`;
  for (const extra of ['u', '']) {
    try {
      return new RegExp(query.pattern, flags + extra);
    } catch (err) {
      if (extra === '') throw new GrepPatternError((err as Error).message);
    }
  }
  throw new GrepPatternError('unreachable');
}

function fileFilter(query: GrepQuery): (rel: string) => boolean {
  const types = query.typeGlobs?.length ? picomatch([...query.typeGlobs], { dot: true, basename: true }) : undefined;
  let glob: ((rel: string) => boolean) | undefined;
  if (query.glob) {
    const negated = query.glob.startsWith('!');
    const pattern = negated ? query.glob.slice(1) : query.glob;
    const test = picomatch(pattern, { dot: true, basename: !pattern.includes('/') });
    glob = negated ? (rel) => !test(rel) : test;
  }
  return (rel) => (!types || types(rel)) && (!glob || glob(rel));
}

/**
 * undefined for files that are too large, unreadable, binary (a NUL byte anywhere) or
 * hard-linked (docs/tools.md, "Hard links"). Opened by name in the directory it was listed in.
 */
export function readText(dir: DirRef, name: string, maxBytes: number): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(at(dir, name), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (!isSingleLinkFile(stat) || stat.size > maxBytes) return undefined;
    const data = Buffer.alloc(stat.size);
    let filled = 0;
    while (filled < stat.size) {
      const read = readSync(fd, data, filled, stat.size - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    if (data.subarray(0, filled).includes(0)) return undefined;
    return data.subarray(0, filled).toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function searchText(path: string, text: string, regex: RegExp, query: GrepQuery): GrepFileHit | undefined {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const matched = query.multiline
    ? multilineMatches(text, regex)
    : new Set(lines.flatMap((l, i) => (regex.test(l) ? [i + 1] : [])));
  if (matched.size === 0) return undefined;
  const shown = new Map<number, boolean>();
  for (const n of matched) {
    for (let c = Math.max(1, n - query.before); c <= Math.min(lines.length, n + query.after); c++)
      if (!shown.has(c)) shown.set(c, false);
  }
  for (const n of matched) shown.set(n, true);
  const out: GrepLine[] = [...shown.keys()]
    .sort((a, b) => a - b)
    .map((n) => ({ line: n, text: lines[n - 1].replace(/\r$/, ''), match: shown.get(n)! }));
  return { path, lines: out, matchedLines: matched.size };
}

function multilineMatches(text: string, regex: RegExp): Set<number> {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const lineOf = (offset: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const matched = new Set<number>();
  for (const m of text.matchAll(regex)) {
    const first = lineOf(m.index);
    const last = lineOf(m.index + Math.max(m[0].length - 1, 0));
    for (let n = first; n <= last; n++) matched.add(n);
  }
  return matched;
}
