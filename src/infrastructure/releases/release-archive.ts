import { mkdirSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import * as tar from 'tar';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';

/** What an archive may unpack to at most, unless the caller says otherwise. */
export const MAX_UNPACKED_BYTES = 256 * 1024 * 1024;
const MAX_ENTRIES = 20_000;
const PLAIN = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory']);
/** Header-only entries: pax and GNU long-name records that tar folds into the entry they precede. */
const META = new Set(['ExtendedHeader', 'GlobalExtendedHeader', 'NextFileHasLongPath', 'OldGnuLongPath']);

/**
 * Unpacks a .tar.gz (or .tar) release archive into `dest` (created), refusing the whole archive
 * before anything is written when an entry is a link (symbolic or hard), a device or FIFO, has
 * an absolute or `..` path, or when the files add up to more than `maxBytes`. A link is how an
 * archive writes outside the folder it unpacks to; a pack or plugin needs plain files only. The
 * `tar` package reads the archive (pax, GNU long names, gzip); its filter is a second guard.
 */
export async function unpackArchive(file: string, dest: string, maxBytes = MAX_UNPACKED_BYTES): Promise<string[]> {
  const names: string[] = [];
  let total = 0;
  let refusal: string | undefined;
  const check = (entry: tar.ReadEntry) => {
    entry.resume();
    if (refusal || META.has(entry.type)) return;
    refusal = unsafe(entry);
    total += entry.type === 'Directory' ? 0 : entry.size;
    if (!refusal && total > maxBytes) refusal = `the files unpack to more than ${maxBytes} bytes`;
    if (!refusal && names.length >= MAX_ENTRIES) refusal = `more than ${MAX_ENTRIES} entries`;
    if (!refusal && entry.type !== 'Directory') names.push(entry.path);
  };
  try {
    await tar.t({ file, strict: true, onReadEntry: check });
  } catch (err) {
    throw unsafeArchive(file, `cannot be read as a tar.gz archive: ${(err as Error).message}`);
  }
  if (refusal) throw unsafeArchive(file, refusal);
  mkdirSync(dest, { recursive: true });
  await tar.x({
    file,
    cwd: dest,
    strict: true,
    preserveOwner: false,
    filter: (path, entry) => 'type' in entry && PLAIN.has(entry.type) && !unsafe(entry),
  });
  return names;
}

function unsafe(entry: tar.ReadEntry): string | undefined {
  const path = entry.path;
  if (!PLAIN.has(entry.type)) {
    const kind =
      entry.type === 'SymbolicLink' ? 'a symbolic link' : entry.type === 'Link' ? 'a hard link' : `a ${entry.type}`;
    return `${JSON.stringify(path)} is ${kind}`;
  }
  if (isAbsolute(path) || /^[A-Za-z]:/.test(path) || path.includes('\\')) {
    return `${JSON.stringify(path)} has an absolute path`;
  }
  if (path.split('/').includes('..')) return `${JSON.stringify(path)} climbs out with ".."`;
  return undefined;
}

function unsafeArchive(file: string, why: string): AwfError {
  return new AwfError(
    ErrorCodes.RELEASE_UNSAFE_ARCHIVE,
    `the archive was refused: ${why}; nothing was installed`,
    { archive: file },
    'Ask the publisher for an archive of plain files and folders, without links or paths that leave its root.',
  );
}
