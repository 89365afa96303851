import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tarGz } from '../../../test/support/releases-api.server';
import { unpackArchive } from './release-archive';

describe('unpacking a release archive', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'awf-archive-spec-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes files under long (pax) names with their exec bits, as npm pack and release tools lay them out', async () => {
    const deep = `package/node_modules/${'x'.repeat(120)}/index.js`;
    writeFileSync(
      join(dir, 'p.tgz'),
      await tarGz({
        files: {
          'package/plugin.yaml': 'name: kv\n',
          'package/awf-plugin-kv': { body: '#!/bin/sh\n', mode: 0o755 },
          [deep]: 'module.exports = 1;\n',
        },
      }),
    );
    const names = await unpackArchive(join(dir, 'p.tgz'), join(dir, 'out'));
    expect(names.sort()).toEqual(['package/awf-plugin-kv', deep, 'package/plugin.yaml'].sort());
    expect(readFileSync(join(dir, 'out', deep), 'utf8')).toBe('module.exports = 1;\n');
    expect(statSync(join(dir, 'out/package/awf-plugin-kv')).mode & 0o111).not.toBe(0);
    expect(statSync(join(dir, 'out/package/plugin.yaml')).mode & 0o111).toBe(0);
  });

  it('refuses what is not a tar.gz, naming the archive', async () => {
    writeFileSync(join(dir, 'p.tgz'), 'not an archive at all');
    await expect(unpackArchive(join(dir, 'p.tgz'), join(dir, 'out'))).rejects.toMatchObject({
      code: 'USER.RELEASE.UNSAFE_ARCHIVE',
    });
  });
});
