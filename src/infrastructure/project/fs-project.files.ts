import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { ProjectFiles } from '../../domain/ports/project-files.port';

/** The working directory's files, each written through a temp file renamed over the target. */
export class FsProjectFiles implements ProjectFiles {
  private readonly dir: string;

  constructor(cwd: string = process.cwd()) {
    this.dir = resolve(cwd);
  }

  root(): string {
    return this.dir;
  }

  exists(relativePath: string): boolean {
    return existsSync(join(this.dir, relativePath));
  }

  write(relativePath: string, content: string, mode: number): void {
    const target = join(this.dir, relativePath);
    const temp = `${target}.${process.pid}.tmp`;
    try {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(temp, content, { mode });
      renameSync(temp, target);
    } catch (err) {
      rmSync(temp, { force: true });
      throw new AwfError(
        ErrorCodes.SYSTEM_IO,
        `cannot write ${target}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
        { file: target },
        'Check that the directory is writable and the disk is not full.',
      );
    }
  }
}
