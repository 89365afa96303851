import { lstat, readdir, realpath } from 'node:fs/promises';

export interface GlobbedFile {
  path: string;
  mtimeMs: number;
}

/**
 * The regular files below `dir` (a real directory inside the sandbox root) whose path from
 * `dir` matches `pattern`, with their mtimes. Directories are read concurrently (libuv's
 * pool reads several at once). Only real directories are entered and only regular files
 * listed, so a symlink is neither followed nor listed and the walk cannot leave `dir`.
 * Each directory is re-resolved once before it is read, so one swapped for a symlink during
 * the walk is skipped, and each listed file is re-checked by the lstat that reads its mtime:
 * one realpath per directory and one lstat per result, instead of both per result.
 */
export async function globFiles(dir: string, pattern: string, skipDirs: readonly string[]): Promise<GlobbedFile[]> {
  // Loaded on first use: mcp-serve's start should not pay for a matcher it may never need.
  const picomatch = require('picomatch') as typeof import('picomatch');
  // tinyglobby, which Glob used before, read `a//b` as `a/b` and a lone negated pattern as nothing.
  pattern = pattern.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');
  if (picomatch.scan(pattern).negated) return [];
  const isMatch = picomatch(pattern, { dot: true });
  const { start, maxDepth } = walkPlan(pattern, skipDirs, picomatch.scan);
  const matched: string[] = [];
  const visit = async (abs: string, rel: string, depth: number): Promise<void> => {
    if (abs !== dir && (await realpath(abs).catch(() => undefined)) !== abs) return;
    const entries = await readdir(abs, { withFileTypes: true }).catch(() => []);
    const below: Array<Promise<void>> = [];
    const prefix = abs.endsWith('/') ? abs : `${abs}/`;
    for (const entry of entries) {
      if (skipDirs.includes(entry.name)) continue;
      const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isFile()) {
        if (isMatch(childRel)) matched.push(prefix + entry.name);
      } else if (entry.isDirectory() && depth + 1 < maxDepth) {
        below.push(visit(prefix + entry.name, childRel, depth + 1));
      }
    }
    await Promise.all(below);
  };
  await visit(start.length === 0 ? dir : `${dir}/${start.join('/')}`, start.join('/'), start.length);
  const stats = await Promise.all(matched.map((path) => lstat(path).catch(() => undefined)));
  return matched.flatMap((path, i) => {
    const stat = stats[i];
    return stat?.isFile() ? [{ path, mtimeMs: stat.mtimeMs }] : [];
  });
}

/**
 * Where the walk starts and how deep it goes: `src/**` + `/*.ts` needs only `src`, and
 * `*` + `/*.ts` nothing below the second level. Anything unusual (escapes, negation,
 * extglobs, braces, `.` segments) keeps the whole walk; the matcher decides either way.
 */
export function walkPlan(pattern: string, skipDirs: readonly string[], scanGlob: typeof import('picomatch').scan): { start: string[]; maxDepth: number } {
  const whole = { start: [], maxDepth: Infinity };
  const scan = scanGlob(pattern);
  if (scan.isExtglob || pattern.includes('\\')) return whole;
  const segments = pattern.split('/');
  if (segments.some((s) => s === '' || s === '.')) return whole;
  const start = !scan.isGlob ? segments.slice(0, -1) : scan.base !== '' ? scan.base.split('/') : [];
  if (start.some((s) => skipDirs.includes(s))) return whole;
  const bounded = !pattern.includes('**') && !pattern.includes('{');
  return { start, maxDepth: bounded ? segments.length : Infinity };
}
