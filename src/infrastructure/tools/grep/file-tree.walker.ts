import { closeSync, constants, openSync, readdirSync, readFileSync } from 'node:fs';
import { at, closeDir, openChildDir, type DirRef } from '../beneath-root.resolver';
import { GitignoreRules, isIgnored } from './gitignore.matcher';

export interface WalkedFile {
  /** The open directory the file was listed in: it is opened by name there, never by path. */
  dir: DirRef;
  name: string;
  /** Relative to the walk base, `/`-separated. */
  rel: string;
}

/**
 * Depth-first walk in ripgrep's `--sort path` order (each directory's entries by name,
 * bytewise), holding each directory by descriptor. A child directory is entered by an
 * O_NOFOLLOW open through its parent's descriptor, so a symlink — or a directory swapped for
 * one mid-walk — is refused by the kernel, never followed; FIFOs, sockets and devices are
 * never listed. Reads `.gitignore` files from the base downwards, like ripgrep with
 * `--no-ignore-parent`. A yielded file's `dir` is open until the walk moves past it.
 */
export function* walkFiles(base: DirRef, skipNames: readonly string[]): Generator<WalkedFile> {
  yield* walkDir(base, '', [], skipNames);
}

function* walkDir(
  dir: DirRef,
  rel: string,
  parentRules: readonly GitignoreRules[],
  skipNames: readonly string[],
): Generator<WalkedFile> {
  let entries;
  try {
    entries = readdirSync(at(dir), { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
  const rules = withOwnGitignore(
    dir,
    rel,
    parentRules,
    entries.some((e) => e.name === '.gitignore' && e.isFile()),
  );
  for (const entry of entries) {
    if (skipNames.includes(entry.name)) continue;
    const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) {
      if (isIgnored(rules, childRel, true)) continue;
      let child: DirRef;
      try {
        child = openChildDir(dir, entry.name);
      } catch {
        continue;
      }
      try {
        yield* walkDir(child, childRel, rules, skipNames);
      } finally {
        closeDir(child);
      }
    } else if (entry.isFile()) {
      if (!isIgnored(rules, childRel, false)) yield { dir, name: entry.name, rel: childRel };
    }
  }
}

function withOwnGitignore(
  dir: DirRef,
  rel: string,
  parent: readonly GitignoreRules[],
  present: boolean,
): readonly GitignoreRules[] {
  if (!present) return parent;
  try {
    // O_NOFOLLOW through the descriptor: a .gitignore swapped for a symlink is not read.
    const fd = openSync(at(dir, '.gitignore'), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      const own = GitignoreRules.parse(readFileSync(fd, 'utf8'), rel);
      return own.empty ? parent : [...parent, own];
    } finally {
      closeSync(fd);
    }
  } catch {
    return parent;
  }
}
