import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, sep } from 'node:path';
import { gunzipSync } from 'node:zlib';

const BLOCK = 512;

/**
 * Unpacks a plugin tarball (`npm pack` output, or a release `.tar.gz`) into `dest`: regular
 * files and folders only, with their exec bits. A member that would land outside `dest` (an
 * absolute path, `..`) or is a link or device is refused, naming the member: a plugin archive
 * has no need for them, and a link is how an archive writes outside the folder it unpacks to.
 * Reads ustar with pax and GNU long names, which is what npm and Go's release tools write.
 * Returns the paths written, relative to `dest`.
 */
export function extractPluginTarball(file: string, dest: string): string[] {
  const raw = readFileSync(file);
  const data = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw;
  const written: string[] = [];
  let longName: string | undefined;
  for (let at = 0; at + BLOCK <= data.length;) {
    const header = data.subarray(at, at + BLOCK);
    if (header.every((b) => b === 0)) break;
    const size = octal(header.subarray(124, 136));
    const type = String.fromCharCode(header[156] || 0x30);
    const body = data.subarray(at + BLOCK, at + BLOCK + size);
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x') {
      longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString('utf8'))?.[1] ?? longName;
      continue;
    }
    if (type === 'L') {
      longName = body.toString('utf8').replace(/\0+$/, '');
      continue;
    }
    if (type === 'g') continue;
    const name = longName ?? ustarName(header);
    longName = undefined;
    if (type === '5' && /^\.?\/?$/.test(name)) continue; // `./`, the archive's own root
    const target = inside(dest, name);
    if (type === '5') {
      mkdirSync(target, { recursive: true });
    } else if (type === '0' || type === '7') {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, body);
      chmodSync(target, octal(header.subarray(100, 108)) & 0o111 ? 0o755 : 0o644);
      written.push(name);
    } else {
      throw new Error(`${name} is a ${type === '2' ? 'symbolic link' : type === '1' ? 'hard link' : 'special file'}`);
    }
  }
  return written;
}

function ustarName(header: Buffer): string {
  const text = (from: number, to: number) => header.subarray(from, to).toString('utf8').replace(/\0.*$/s, '');
  const prefix = header.subarray(257, 263).toString('latin1').startsWith('ustar') ? text(345, 500) : '';
  return prefix ? `${prefix}/${text(0, 100)}` : text(0, 100);
}

function octal(field: Buffer): number {
  return parseInt(field.toString('latin1').replace(/[\0 ]+/g, '') || '0', 8);
}

function inside(dest: string, name: string): string {
  const clean = normalize(name);
  if (isAbsolute(clean) || clean === '..' || clean.startsWith(`..${sep}`) || clean === '.' || clean === `.${sep}`) {
    throw new Error(`${JSON.stringify(name)} would be written outside the plugin folder`);
  }
  return join(dest, clean);
}
