import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Watching an `awf run` from outside, as a user with `ps` and `ls` would: files a step makes
 * when it is under way, processes a run must not leave behind.
 */

/** Resolves when every one of `files` exists (steps touch them when they are under way). */
export async function waitForFiles(files: readonly string[], timeoutMs = 90_000): Promise<void> {
  for (const until = Date.now() + timeoutMs; !files.every((f) => existsSync(f)); await sleep(50)) {
    if (Date.now() > until) throw new Error(`${files.filter((f) => !existsSync(f)).join(', ')} never appeared`);
  }
}

/** Live processes whose command line contains `marker` (what `ps | grep` would show). */
export function processesWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * What is left of a run: processes naming its TMPDIR (every mcp-serve of the run names its
 * config there) or any of `markers`, and the files in that TMPDIR. Both empty once it is over.
 */
export function runLeftovers(
  project: { tmp: string; leftovers(): string[] },
  ...markers: string[]
): { processes: number[]; tempFiles: string[] } {
  return {
    processes: [project.tmp, ...markers].flatMap((m) => processesWith(m)),
    tempFiles: project.leftovers(),
  };
}
