import { randomBytes } from 'node:crypto';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PrivateDir, PrivateDirs } from '../../domain/ports/private-dirs.port';

/** A `mkdtemp` directory (0700 by construction), made on first use and removed by `remove()`. */
export class PrivateTempDir implements PrivateDir {
  private dir?: string;

  constructor(
    private readonly prefix: string,
    private readonly parent: string = tmpdir(),
  ) {}

  get path(): string {
    this.dir ??= mkdtempSync(join(this.parent, this.prefix));
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

/** PrivateDirs over the system temp dir (or `parent`, for tests). */
export class PrivateTempDirs implements PrivateDirs {
  constructor(private readonly parent: string = tmpdir()) {}

  make(prefix: string): PrivateDir {
    return new PrivateTempDir(prefix, this.parent);
  }
}
