import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPackManifest } from './pack-manifest';

describe("a pack's manifest.yaml (AWF's checks)", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'awf-pack-manifest-'));
    mkdirSync(join(dir, 'workflows'));
    writeFileSync(join(dir, 'workflows', 'greet.yaml'), 'name: greet\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const manifest = (fields: Record<string, unknown>) => {
    const base = { name: 'hello', version: '1.0.0', awf_version: '>=0.8.0', workflows: ['greet'], ...fields };
    writeFileSync(join(dir, 'manifest.yaml'), JSON.stringify(base));
    return () => readPackManifest(dir, '0.11.0');
  };

  it('reads the fields, plugins included', () => {
    expect(manifest({ description: 'Hi', plugins: { jira: '>=1.0.0' } })()).toEqual({
      name: 'hello',
      version: '1.0.0',
      description: 'Hi',
      awf_version: '>=0.8.0',
      workflows: ['greet'],
      plugins: { jira: '>=1.0.0' },
    });
  });

  it.each([
    [{ name: 'Hello' }, 'name "Hello" is not lower-case'],
    [{ name: 'global' }, 'name "global" is reserved'],
    [{ version: '1.0' }, 'version "1.0" is not SemVer'],
    [{ awf_version: 'soon' }, 'awf_version "soon" is not a version constraint'],
    [{ workflows: [] }, 'workflows lists no workflow'],
    [{ workflows: ['greet', 'missing'] }, 'lists missing but has no workflows/missing.yaml'],
    [{ workflows: ['../etc/passwd'] }, 'workflow name "../etc/passwd" is not a name'],
  ])('refuses %j: %s', (fields, message) => {
    expect(manifest(fields)).toThrow(expect.objectContaining({ code: 'USER.PACK.INVALID_MANIFEST' }));
    expect(manifest(fields)).toThrow(message);
  });

  it("refuses a pack whose awf_version does not accept AWF's version", () => {
    expect(manifest({ awf_version: '>=1.0.0' })).toThrow(
      expect.objectContaining({
        code: 'USER.PACK.INCOMPATIBLE',
        message: 'workflow pack hello requires AWF >=1.0.0; awf implements AWF 0.11.0',
      }),
    );
  });
});
