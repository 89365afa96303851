import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { extractPluginTarball } from './plugin-tarball';

interface Member {
  name: string;
  type?: '0' | '2' | '5';
  body?: string;
  mode?: number;
  linkTo?: string;
}

/** A ustar archive as npm and Go write them (names over 100 bytes go in a pax header). */
function tarball(members: Member[]): Buffer {
  const blocks: Buffer[] = [];
  const header = (name: string, size: number, type: string, mode: number, linkTo = '') => {
    const h = Buffer.alloc(512);
    h.write(name.slice(0, 100), 0);
    h.write(mode.toString(8).padStart(7, '0'), 100);
    h.write(size.toString(8).padStart(11, '0'), 124);
    h.write(type, 156);
    h.write(linkTo, 157);
    h.write('ustar\u000000', 257);
    h.write('        ', 148);
    const sum = h.reduce((a, b) => a + b, 0);
    h.write(sum.toString(8).padStart(6, '0') + '\u0000 ', 148);
    return h;
  };
  const pad = (b: Buffer) => Buffer.concat([b, Buffer.alloc((512 - (b.length % 512)) % 512)]);
  for (const m of members) {
    const body = Buffer.from(m.body ?? '');
    if (m.name.length > 100) {
      const record = ` path=${m.name}\n`;
      const pax = Buffer.from(`${record.length + String(record.length + 2).length}${record}`);
      blocks.push(header('PaxHeader', pax.length, 'x', 0o644), pad(pax));
    }
    blocks.push(header(m.name, body.length, m.type ?? '0', m.mode ?? 0o644, m.linkTo), pad(body));
  }
  return gzipSync(Buffer.concat([...blocks, Buffer.alloc(1024)]));
}

describe('unpacking a plugin tarball', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'awf-tarball-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const unpack = (members: Member[]) => {
    writeFileSync(join(dir, 'p.tgz'), tarball(members));
    return extractPluginTarball(join(dir, 'p.tgz'), join(dir, 'out'));
  };

  it('writes files and folders with their exec bits, long names included', () => {
    const deep = `package/node_modules/${'x'.repeat(90)}/index.js`;
    expect(
      unpack([
        { name: 'package/', type: '5' },
        { name: 'package/plugin.yaml', body: 'name: kv\n' },
        { name: 'package/awf-plugin-kv', body: '#!/bin/sh\n', mode: 0o755 },
        { name: deep, body: 'module.exports = 1;\n' },
      ]),
    ).toEqual(['package/plugin.yaml', 'package/awf-plugin-kv', deep]);
    expect(readFileSync(join(dir, 'out/package/plugin.yaml'), 'utf8')).toBe('name: kv\n');
    expect(statSync(join(dir, 'out/package/awf-plugin-kv')).mode & 0o777).toBe(0o755);
    expect(statSync(join(dir, 'out/package/plugin.yaml')).mode & 0o777).toBe(0o644);
    expect(readFileSync(join(dir, 'out', deep), 'utf8')).toBe('module.exports = 1;\n');
  });

  it.each([
    [[{ name: '../evil.sh', body: 'x' }], '"../evil.sh" would be written outside the plugin folder'],
    [[{ name: 'package/../../evil.sh', body: 'x' }], 'would be written outside the plugin folder'],
    [[{ name: '/etc/evil', body: 'x' }], '"/etc/evil" would be written outside the plugin folder'],
    [[{ name: 'package/link', type: '2' as const, linkTo: '/etc' }], 'package/link is a symbolic link'],
  ])('refuses %j, writing nothing outside', (members, message) => {
    expect(() => unpack(members)).toThrow(message);
    expect(existsSync(join(dir, 'evil.sh'))).toBe(false);
    expect(existsSync(join(tmpdir(), 'evil.sh'))).toBe(false);
  });
});
