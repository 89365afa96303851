import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { agentCliCacheDir } from '../agents/agent-clis.installer';
import { findExecutable } from '../../src/infrastructure/tools/executable.lookup';
import { ripgrepSource } from './launch-paths';

/**
 * ripgrep and bubblewrap are optional for users, and CI installs neither. The "present"
 * variants of the tests use a user's own copy when one is on PATH, else the copies the pinned
 * codex package ships; when neither exists the variant is skipped and says why.
 */
const VENDOR = join('node_modules', '@openai', 'codex-linux-x64', 'vendor', 'x86_64-unknown-linux-musl');

function optional(name: string, vendored: string): string | undefined {
  const onPath = findExecutable(name, process.env.PATH);
  if (onPath) return onPath;
  const shipped = join(agentCliCacheDir(), VENDOR, vendored);
  return existsSync(shipped) ? shipped : undefined;
}

export const RIPGREP = ripgrepSource();
export const BUBBLEWRAP = optional('bwrap', join('codex-resources', 'bwrap'));

/** A PATH on which `name` resolves to the optional binary (its own directory first). */
export function pathWith(binary: string): string {
  return `${dirname(binary)}:${process.env.PATH ?? ''}`;
}

/** Prints once why a "present" variant is skipped, so a green run says what it did not cover. */
export function reportMissing(name: string, binary: string | undefined): void {
  if (!binary)
    console.log(
      `${name} is neither on PATH nor in the pinned codex package (${agentCliCacheDir()}): its "present" tests are skipped`,
    );
}
