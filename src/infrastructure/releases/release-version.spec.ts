import { isNewer, pickRelease, type Release, satisfies, tagVersion } from './release-version';
import { looksLikeReleaseSource, parseReleaseSource } from './release-source';

const rel = (tag: string, prerelease = false, draft = false): Release => ({
  tag_name: tag,
  prerelease,
  draft,
  assets: [],
});

describe("AWF's release and version rules", () => {
  const releases = [
    rel('v1.2.0'),
    rel('v1.10.0'),
    rel('v2.0.0-rc.1', true),
    rel('v3.0.0', false, true),
    rel('nightly'),
  ];

  it('takes the highest stable SemVer release (not lexical, no pre-release, no draft, no non-SemVer tag)', () => {
    expect(pickRelease(releases)?.tag_name).toBe('v1.10.0');
    expect(pickRelease(releases, undefined, true)?.tag_name).toBe('v2.0.0-rc.1');
  });

  it('takes an exact version with or without its v, and nothing for one not published', () => {
    expect(pickRelease(releases, '1.2.0')?.tag_name).toBe('v1.2.0');
    expect(pickRelease(releases, 'v2.0.0-rc.1')?.tag_name).toBe('v2.0.0-rc.1');
    expect(pickRelease(releases, '9.9.9')).toBeUndefined();
    expect([tagVersion('v1.2.3'), tagVersion('latest')]).toEqual(['1.2.3', undefined]);
    expect([isNewer('1.10.0', '1.9.0'), isNewer('1.0.0', '1.0.0')]).toEqual([true, false]);
  });

  it.each([
    ['0.11.0', '>=0.8.0', true],
    ['0.11.0', '>=0.8.0, <0.11.0', false],
    ['0.11.0', '>=0.8.0 <1.0.0', true],
    ['0.11.0', '^0.11.0', true],
    ['0.12.0', '^0.11.0', false],
    ['1.4.2', '~1.4.0', true],
    ['1.0.0', '==1.0.0', true],
    ['1.0.0', '!=1.0.0', false],
    ['1.0.0', 'soon', undefined],
    ['1.0.0', '', undefined],
  ])('%s against awf_version %j is %s', (version, constraint, expected) => {
    expect(satisfies(version, constraint)).toBe(expected);
  });

  it('reads owner/repo[@version] and refuses what is not', () => {
    expect(parseReleaseSource('acme/awf-workflow-x@v1.2.0')).toEqual({
      repository: 'acme/awf-workflow-x',
      version: '1.2.0',
    });
    expect(parseReleaseSource('acme/x')).toEqual({ repository: 'acme/x' });
    for (const bad of ['acme', 'a/b/c', 'https://x.test/a/b', 'acme/x@^1.0', '../x', 'acme/..'])
      expect(() => parseReleaseSource(bad)).toThrow(expect.objectContaining({ code: 'USER.RELEASE.INVALID_SOURCE' }));
    expect([looksLikeReleaseSource('acme/x@1.0.0'), looksLikeReleaseSource('./plugins/x')]).toEqual([true, false]);
  });
});
