import { close, closeSync, constants, fstatSync, openSync, read, readSync } from 'node:fs';
import { lstat, mkdir, open, realpath, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isInside } from './path-sandbox.service';
import { ToolFailure } from './tool-failure.error';

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
 * Reads at most `maxBytes` of a regular file. O_NOFOLLOW refuses a symlink swapped in after
 * validation, O_NONBLOCK keeps a FIFO from hanging the open, and fstat on the opened
 * descriptor refuses devices, FIFOs and sockets before a single byte is read.
 */
export async function readRegularFile(real: string, shown: string, maxBytes: number): Promise<FileBytes> {
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    throw openFailure(err, shown);
  }
  let owned = true;
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new ToolFailure(`${shown} is a directory, not a file; use Glob to list it`);
    if (!stat.isFile()) throw new ToolFailure(`${shown} is not a regular file (device, FIFO or socket); refused`);
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
        read(fd, data, filled, want - filled, filled, (err, n) => (err ? reject(err) : resolve(n))));
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
 * Writes through a temp file created exclusively in the target's real directory, then
 * renames it over the target: readers see the old or the new content, never a mix, and a
 * symlink swapped in at the target is replaced rather than followed. The directory is
 * re-resolved after mkdir, so a parent swapped for a symlink out of the root is caught.
 */
export async function writeFileAtomic(real: string, shown: string, content: string | Buffer, root: string): Promise<{ created: boolean }> {
  const dir = dirname(real);
  const existing = await lstat(real).catch(() => undefined);
  if (existing?.isDirectory()) throw new ToolFailure(`${shown} is a directory; cannot write file content to it`);
  if (existing && !existing.isFile() && !existing.isSymbolicLink()) throw new ToolFailure(`${shown} is not a regular file (device, FIFO or socket); refused`);
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ToolFailure(code === 'ENOTDIR' || code === 'EEXIST' ? `${shown}: a parent of it is a file, not a directory` : `${shown}: cannot create its directory (${code})`);
  }
  if ((await realpath(dir)) !== dir || !isInside(dir, root)) throw new ToolFailure(`${shown}: its directory changed while writing; refused`);
  const { randomBytes } = require('node:crypto') as typeof import('node:crypto');
  const temp = join(dir, `.${basename(real)}.awf-${randomBytes(6).toString('hex')}.tmp`);
  const mode = existing?.isFile() ? existing.mode & 0o7777 : 0o666;
  try {
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.writeFile(content);
      if (existing?.isFile()) await handle.chmod(mode);
    } finally {
      await handle.close();
    }
    await rename(temp, real);
  } catch (err) {
    await rm(temp, { force: true });
    if (err instanceof ToolFailure) throw err;
    throw new ToolFailure(`${shown}: write failed (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  return { created: !existing };
}
