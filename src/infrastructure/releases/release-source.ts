import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { tagVersion } from './release-version';

/** `owner/repo[@version]`: where a pack or plugin is published, and which release. */
export interface ReleaseSource {
  repository: string;
  version?: string;
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** True when `text` has the shape of a release source (used to tell it from a local path). */
export function looksLikeReleaseSource(text: string): boolean {
  const [repo] = text.split('@');
  const parts = repo.split('/');
  return parts.length === 2 && parts.every((p) => SEGMENT.test(p) && p !== '..' && p !== '.');
}

/** Parses AWF's `owner/repo[@X.Y.Z]`; a version must be exact SemVer (AWF refuses ranges here). */
export function parseReleaseSource(text: string): ReleaseSource {
  const at = text.lastIndexOf('@');
  const repository = at >= 0 ? text.slice(0, at) : text;
  const version = at >= 0 ? text.slice(at + 1) : undefined;
  if (/^https?:\/\//.test(text) || repository.length > 200 || !looksLikeReleaseSource(repository)) {
    throw invalidSource(text, 'is not owner/repo');
  }
  if (version !== undefined && !tagVersion(version)) throw invalidSource(text, `has no exact version after @`);
  return version === undefined ? { repository } : { repository, version: tagVersion(version) };
}

function invalidSource(text: string, what: string): AwfError {
  return new AwfError(
    ErrorCodes.RELEASE_INVALID_SOURCE,
    `${JSON.stringify(text)} ${what}`,
    { source: text },
    'Write it as owner/repo or owner/repo@1.2.0.',
  );
}
