import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A temp file nobody has written to for this long belongs to a writer that died (an
 * mcp-serve killed by SIGKILL mid-Write); a live writer streaming its content keeps the mtime fresh.
 */
export const STALE_TEMP_MS = 60_000;

const SUFFIX = /^\.awf-[0-9a-f]{12}\.tmp$/;

/** The name an atomic write of `base` stages its content under, beside the target. */
export function writeTempName(base: string): string {
  const { randomBytes } = require('node:crypto') as typeof import('node:crypto');
  return `.${base}.awf-${randomBytes(6).toString('hex')}.tmp`;
}

/** Files already swept by this process: leftovers come from writers that died before it started. */
const swept = new Set<string>();

/**
 * Removes temp files of `base` left in `dir` (a path through the checked directory's
 * descriptor; `key` names it across calls) by a writer that died, so the first Write of the
 * same file in a later `mcp-serve` tidies up after a killed one. Once per file per process:
 * the directory is not listed again on every Write. Best effort: a failure here never fails
 * the write.
 */
export async function sweepStaleWriteTemps(dir: string, key: string, base: string, now = Date.now()): Promise<number> {
  const prefix = `.${base}`;
  key = `${key}/${prefix}`;
  if (swept.has(key)) return 0;
  swept.add(key);
  let removed = 0;
  try {
    for (const name of await readdir(dir)) {
      if (!name.startsWith(prefix) || !SUFFIX.test(name.slice(prefix.length))) continue;
      const path = join(dir, name);
      const info = await lstat(path).catch(() => undefined);
      if (!info?.isFile() || now - info.mtimeMs < STALE_TEMP_MS) continue;
      await rm(path, { force: true });
      removed++;
    }
  } catch {
    // an unreadable directory: the write itself already succeeded
  }
  return removed;
}
