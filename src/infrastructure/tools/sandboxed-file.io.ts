import { close, closeSync, constants, fstatSync, lstatSync, openSync, read, readSync, type Stats } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { at, type Beneath } from './beneath-root.resolver';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { ToolFailure } from './tool-failure.error';
import { sweepStaleWriteTemps, writeTempName } from './write-temp.files';

export interface FileBytes {
  data: Buffer;
  /** Size on disk; larger than `data.length` when the read cap cut the file. */
  size: number;
  truncated: boolean;
}

/**
 * Reads up to this many bytes synchronously: open, fstat, read and close of a small file
 * cost a few microseconds each as direct syscalls, but tens to hundreds as separate trips to
 * libuv's thread pool (which is what a loaded machine makes slow). Larger reads go async so
 * one big file does not stall every other call in flight.
 */
export const SYNC_READ_MAX_BYTES = 256 * 1024;

/**
 * Reads at most `maxBytes` of a regular file, opened by name inside its checked directory's
 * descriptor. O_NOFOLLOW refuses a symlink swapped in after validation, O_NONBLOCK keeps a
 * FIFO from hanging the open, and fstat on the opened descriptor refuses devices, FIFOs,
 * sockets and hard-linked files before a single byte is read.
 */
export async function readRegularFile(file: Beneath, shown: string, maxBytes: number): Promise<FileBytes> {
  if (file.name === '') throw new ToolFailure(`${shown} is a directory, not a file; use Glob to list it`);
  let fd: number;
  try {
    fd = openSync(at(file.dir, file.name), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    throw openFailure(err, shown);
  }
  let owned = true;
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new ToolFailure(`${shown} is a directory, not a file; use Glob to list it`);
    if (!stat.isFile()) throw new ToolFailure(`${shown} is not a regular file (device, FIFO or socket); refused`);
    refuseHardLinked(stat, shown);
    const want = Math.min(stat.size, maxBytes);
    // Every byte up to `filled` is overwritten before it is returned, so no zero-fill is needed.
    const data = Buffer.allocUnsafe(want);
    let filled = 0;
    if (want <= SYNC_READ_MAX_BYTES) {
      while (filled < want) {
        const bytesRead = readSync(fd, data, filled, want - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
    } else {
      owned = false;
      filled = await readAsyncThenClose(fd, data, want);
    }
    return { data: data.subarray(0, filled), size: stat.size, truncated: stat.size > maxBytes };
  } finally {
    if (owned) closeSync(fd);
  }
}

async function readAsyncThenClose(fd: number, data: Buffer, want: number): Promise<number> {
  let filled = 0;
  try {
    while (filled < want) {
      const bytesRead = await new Promise<number>((resolve, reject) =>
        read(fd, data, filled, want - filled, filled, (err, n) => (err ? reject(err) : resolve(n))),
      );
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return filled;
  } finally {
    await new Promise<void>((resolve) => close(fd, () => resolve()));
  }
}

function openFailure(err: unknown, shown: string): ToolFailure {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new ToolFailure(`${shown} does not exist`);
  if (code === 'ELOOP') return new ToolFailure(`${shown} became a symlink after it was checked; refused`);
  if (code === 'ENXIO') return new ToolFailure(`${shown} is not a regular file (socket or FIFO); refused`);
  if (code === 'EACCES' || code === 'EPERM') return new ToolFailure(`${shown}: permission denied`);
  return new ToolFailure(`${shown} cannot be opened (${code ?? String(err)})`);
}

/** A NUL byte in the first 8 KiB is the same binary test git and ripgrep use. */
export function looksBinary(data: Buffer): boolean {
  return data.subarray(0, 8192).includes(0);
}

/**
 * The inode rule (docs/tools.md, "Hard links"): a path inside the root is inside only if its
 * inode has no other name. A second link may sit anywhere on the file system, outside the root
 * included, and nothing short of a scan of the whole file system can tell where.
 */
export function refuseHardLinked(stat: Stats, shown: string): void {
  if (stat.isFile() && stat.nlink > 1) {
    throw new ToolFailure(
      `${shown} has ${stat.nlink} hard links; a hard-linked file may also live outside the sandbox root, so it is refused`,
    );
  }
}

/** Whether a walk (Glob, Grep) may show this entry: a regular file of one link. */
export function isSingleLinkFile(stat: Stats | undefined): boolean {
  return stat !== undefined && stat.isFile() && stat.nlink === 1;
}

/**
 * Writes through a temp file created exclusively in the target's checked directory (by its
 * descriptor), then renames it over the target in that same directory: readers see the old or
 * the new content, never a mix, a symlink swapped in at the target is replaced rather than
 * followed, and a parent swapped for a symlink meanwhile changes nothing (the descriptor still
 * holds the directory that was checked).
 */
export async function writeFileAtomic(
  file: Beneath,
  shown: string,
  content: string | Buffer,
): Promise<{ created: boolean }> {
  if (file.name === '') throw new ToolFailure(`${shown} is a directory; cannot write file content to it`);
  const target = at(file.dir, file.name);
  const existing: Stats | undefined = lstatSync(target, { throwIfNoEntry: false });
  if (existing?.isDirectory()) throw new ToolFailure(`${shown} is a directory; cannot write file content to it`);
  if (existing && !existing.isFile() && !existing.isSymbolicLink())
    throw new ToolFailure(`${shown} is not a regular file (device, FIFO or socket); refused`);
  if (existing) refuseHardLinked(existing, shown);
  // Replacing through a rename would succeed where the shell and every editor refuse.
  if (existing?.isFile() && (existing.mode & 0o222) === 0)
    throw new ToolFailure(
      `[${ErrorCodes.FILE_READ_ONLY}] ${shown} is read-only (mode ${(existing.mode & 0o777).toString(8)}); ` +
        'nothing was written. Make it writable first (chmod u+w) if it is meant to change.',
    );
  const tempName = writeTempName(file.name);
  const temp = at(file.dir, tempName);
  const mode = existing?.isFile() ? existing.mode & 0o7777 : 0o666;
  try {
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.writeFile(content);
      if (existing?.isFile()) await handle.chmod(mode);
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    if (err instanceof ToolFailure) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
      throw new ToolFailure(
        `[${ErrorCodes.FILE_READ_ONLY}] cannot write ${shown}: its directory is not writable (${code}); ` +
          'nothing was written (a file is replaced through a temporary file beside it).',
      );
    throw new ToolFailure(`${shown}: write failed (${code ?? String(err)})`);
  }
  const { dev, ino } = fstatSync(file.dir.fd);
  await sweepStaleWriteTemps(at(file.dir), `${dev}:${ino}`, file.name);
  return { created: !existing };
}
