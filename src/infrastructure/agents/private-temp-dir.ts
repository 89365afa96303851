import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A directory only we can read (0700), made on first use and removed by `remove()`.
 * Agent configs written here may name commands and environment, so they stay private.
 */
export class PrivateTempDir {
  private dir?: string;

  constructor(private readonly prefix: string) {}

  get path(): string {
    this.dir ??= mkdtempSync(join(tmpdir(), this.prefix));
    return this.dir;
  }

  /** Writes `name` atomically (temp file + rename in the same directory), mode 0600. */
  write(name: string, content: string): string {
    const target = join(this.path, name);
    const temp = `${target}.${process.pid}.tmp`;
    writeFileSync(temp, content, { mode: 0o600 });
    renameSync(temp, target);
    return target;
  }

  /** Idempotent; a directory that was never made is fine. */
  remove(): void {
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }
}
