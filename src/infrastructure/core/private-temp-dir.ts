import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PrivateDir, PrivateDirs } from '../../domain/ports/private-dirs.port';
import { alive, startTime } from './process-tree';

/** A `mkdtemp` directory (0700 by construction), made on first use and removed by `remove()`. */
export class PrivateTempDir implements PrivateDir {
  private dir?: string;

  constructor(
    private readonly prefix: string,
    private readonly parent: string = tmpdir(),
    /** Runs once the directory exists, before anything else is put in it. */
    private readonly made?: (dir: PrivateTempDir) => void,
  ) {}

  get path(): string {
    if (this.dir === undefined) {
      this.dir = mkdtempSync(join(this.parent, this.prefix));
      this.made?.(this);
    }
    return this.dir;
  }

  write(name: string, content: string): string {
    const target = join(this.path, name);
    // A unique name, created exclusively: two writers never share a temp file, and a reader
    // of `target` sees the old content or the new, never half of it.
    const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      writeFileSync(temp, content, { mode: 0o600, flag: 'wx' });
      renameSync(temp, target);
    } catch (err) {
      rmSync(temp, { force: true });
      throw err;
    }
    return target;
  }

  remove(): void {
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }
}

/** The file in each directory PrivateTempDirs makes that names the process that owns it. */
const OWNER_FILE = 'owner.json';

/**
 * PrivateDirs over the system temp dir (or `parent`, for tests). Each directory names its owner
 * (pid and that process's start time), so one left by a process killed with SIGKILL, which
 * removes nothing, is recognised as abandoned and removed by a later process's `sweep`.
 */
export class PrivateTempDirs implements PrivateDirs {
  constructor(private readonly parent: string = tmpdir()) {}

  make(prefix: string): PrivateDir {
    return new PrivateTempDir(prefix, this.parent, (dir) =>
      dir.write(OWNER_FILE, JSON.stringify({ pid: process.pid, start: startTime(process.pid) })),
    );
  }

  /**
   * Removes the `prefix*` directories whose owner is gone: its pid no longer runs, or runs as
   * another process (a later start time). A directory naming no owner, or a live one, is kept.
   */
  sweep(prefix: string): void {
    let names: string[];
    try {
      names = readdirSync(this.parent).filter((n) => n.startsWith(prefix));
    } catch {
      return;
    }
    for (const name of names) {
      const dir = join(this.parent, name);
      const owner = ownerOf(dir);
      if (owner && owner.pid !== process.pid && ownerGone(owner)) rmSync(dir, { recursive: true, force: true });
    }
  }
}

interface Owner {
  pid: number;
  start?: string;
}

function ownerOf(dir: string): Owner | undefined {
  try {
    const owner = JSON.parse(readFileSync(join(dir, OWNER_FILE), 'utf8')) as Partial<Owner>;
    return Number.isInteger(owner.pid) && owner.pid! > 0 ? (owner as Owner) : undefined;
  } catch {
    return undefined;
  }
}

function ownerGone({ pid, start }: Owner): boolean {
  if (!alive(pid)) return true;
  const now = startTime(pid);
  return start !== undefined && now !== undefined && now !== start;
}
