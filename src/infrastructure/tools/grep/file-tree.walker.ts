import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GitignoreRules, isIgnored } from './gitignore.matcher';

export interface WalkedFile {
  abs: string;
  /** Relative to the walk base, `/`-separated. */
  rel: string;
}

/**
 * Depth-first walk in ripgrep's `--sort path` order (each directory's entries by name,
 * bytewise). Symlinks are never followed nor listed, so the walk cannot leave the root;
 * FIFOs, sockets and devices are never listed either. Reads `.gitignore` files from the
 * base downwards, like ripgrep with `--no-ignore-parent`.
 */
export function* walkFiles(base: string, skipNames: readonly string[]): Generator<WalkedFile> {
  yield* walkDir(base, '', [], skipNames);
}

function* walkDir(abs: string, rel: string, parentRules: readonly GitignoreRules[], skipNames: readonly string[]): Generator<WalkedFile> {
  let entries;
  try {
    entries = readdirSync(abs, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
  const rules = withOwnGitignore(abs, rel, parentRules, entries.some((e) => e.name === '.gitignore' && e.isFile()));
  for (const entry of entries) {
    if (skipNames.includes(entry.name)) continue;
    const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!isIgnored(rules, childRel, true)) yield* walkDir(join(abs, entry.name), childRel, rules, skipNames);
    } else if (entry.isFile()) {
      if (!isIgnored(rules, childRel, false)) yield { abs: join(abs, entry.name), rel: childRel };
    }
  }
}

function withOwnGitignore(abs: string, rel: string, parent: readonly GitignoreRules[], present: boolean): readonly GitignoreRules[] {
  if (!present) return parent;
  try {
    const own = GitignoreRules.parse(readFileSync(join(abs, '.gitignore'), 'utf8'), rel);
    return own.empty ? parent : [...parent, own];
  } catch {
    return parent;
  }
}
