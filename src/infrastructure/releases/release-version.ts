import semver from 'semver';

/** A release as the GitHub releases API lists it (the fields awf reads). */
export interface Release {
  tag_name: string;
  prerelease: boolean;
  draft?: boolean;
  assets: ReleaseAsset[];
}

export interface ReleaseAsset {
  name: string;
  browser_download_url: string;
  size: number;
}

/** `v1.2.0` and `1.2.0` name the same version; undefined for a tag that is not SemVer. */
export function tagVersion(tag: string): string | undefined {
  return semver.valid(tag.trim().replace(/^v/, '')) ?? undefined;
}

/**
 * AWF's choice of release: the exact version when one is asked for (a tag `vX` or `X`), else
 * the highest SemVer among stable releases (pre-releases too with `prerelease`). Drafts never.
 */
export function pickRelease(releases: Release[], version?: string, prerelease = false): Release | undefined {
  const listed = releases.filter((r) => !r.draft && tagVersion(r.tag_name));
  if (version) return listed.find((r) => tagVersion(r.tag_name) === tagVersion(version));
  return listed
    .filter((r) => prerelease || (!r.prerelease && !semver.prerelease(tagVersion(r.tag_name)!)))
    .sort((a, b) => semver.rcompare(tagVersion(a.tag_name)!, tagVersion(b.tag_name)!))[0];
}

export function isNewer(candidate: string, current: string): boolean {
  const a = tagVersion(candidate);
  const b = tagVersion(current);
  return !!a && (!b || semver.gt(a, b));
}

export function isVersion(value: unknown): value is string {
  return typeof value === 'string' && semver.valid(value) === value.trim();
}

/**
 * AWF's version constraints (`>=0.4.0`, `^1.2`, `~1.2.3`, `>=1.0.0, <2.0.0`, `==1.0.0`,
 * `!=1.1.0`): every comma- or space-separated part must hold. Undefined when it cannot be read.
 */
export function satisfies(version: string, constraint: string): boolean | undefined {
  const parts = constraint.replace(/,/g, ' ').trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return undefined;
  const v = tagVersion(version);
  if (!v) return undefined;
  let ok = true;
  for (const part of parts) {
    const not = /^!=\s*(.+)$/.exec(part);
    const range = not ? undefined : semver.validRange(part.replace(/^==/, '='));
    const excluded = not ? tagVersion(not[1]) : undefined;
    if (not ? !excluded : !range) return undefined;
    ok &&= not ? v !== excluded : semver.satisfies(v, range!, { includePrerelease: true });
  }
  return ok;
}
