import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { PrivateTempDirs } from '../core/private-temp-dir';
import { GithubReleasesClient } from './github-releases.client';
import { folderDigest, writeInstallState } from './install-state';
import { MAX_UNPACKED_BYTES, unpackArchive } from './release-archive';
import type { ReleaseSource } from './release-source';
import { pickRelease, type Release, type ReleaseAsset, tagVersion } from './release-version';

/** AWF's cap on a downloaded archive. */
const MAX_DOWNLOAD_BYTES = 100 * 1024 * 1024;
const MAX_CHECKSUMS_BYTES = 1024 * 1024;
/** Staging folders, next to where installs go (one file system, so the final rename is atomic). */
const STAGING = '.awf-install-';

export interface ReleaseInstallRequest {
  source: ReleaseSource;
  prerelease?: boolean;
  /** The folder the installed folder goes into (created when missing). */
  parentDir: string;
  force?: boolean;
  /** The release asset to install; a string says why none fits. */
  pickAsset(assets: ReleaseAsset[]): ReleaseAsset | string;
  /** Checks what was unpacked (in a staging folder); returns the name and folder to install. */
  accept(unpacked: string, staging: string, version: string): Promise<{ name: string; dir: string }>;
  /** The error for a folder already there without `force`. */
  exists(target: string, name: string): AwfError;
  /** From the install an update replaces. */
  installedAt?: string;
  progress?(line: string): void;
  maxUnpackedBytes?: number;
}

export interface InstalledRelease {
  name: string;
  dir: string;
  repository: string;
  version: string;
  asset: string;
  sha256: string;
}

/**
 * The one install path for packs and plugins published as releases: pick the release, download
 * its asset and `checksums.txt`, check the SHA-256, unpack safely into a staging folder next to
 * the target, let the caller check what it got, write `state.json`, then rename into place
 * (a replaced folder is moved aside first and removed after). Whatever fails, the staging folder
 * is removed: no half-installed folder is ever where packs or plugins are looked for.
 */
export class ReleaseInstaller {
  constructor(readonly client = new GithubReleasesClient()) {}

  /** The release an install of `source` would take, and its version. */
  async resolve(source: ReleaseSource, prerelease = false): Promise<{ release: Release; version: string }> {
    const releases = await this.client.listReleases(source.repository);
    const release = pickRelease(releases, source.version, prerelease);
    if (!release) {
      throw new AwfError(
        ErrorCodes.RELEASE_NOT_FOUND,
        source.version
          ? `${source.repository} has no release ${source.version}`
          : `${source.repository} has no stable release${releases.length ? '' : ' (it has no releases at all)'}`,
        { repository: source.repository, version: source.version, tags: releases.map((r) => r.tag_name) },
        releases.length
          ? `Published: ${releases.map((r) => r.tag_name).join(', ')}.`
          : 'Ask the publisher to publish a release.',
      );
    }
    return { release, version: tagVersion(release.tag_name)! };
  }

  async install(req: ReleaseInstallRequest): Promise<InstalledRelease> {
    const { repository } = req.source;
    req.progress?.(`Fetching releases for ${repository}...`);
    const { release, version } = await this.resolve(req.source, req.prerelease);
    req.progress?.(`Resolved version: ${version}`);
    const asset = req.pickAsset(release.assets);
    if (typeof asset === 'string') throw noAsset(repository, release, asset);
    const expected = await this.checksumOf(repository, release, asset.name);
    req.progress?.(`Downloading ${asset.name}...`);
    const data = await this.client.download(asset.browser_download_url, MAX_DOWNLOAD_BYTES);
    const sha256 = createHash('sha256').update(data).digest('hex');
    if (sha256 !== expected) {
      throw new AwfError(
        ErrorCodes.RELEASE_CHECKSUM_MISMATCH,
        `${asset.name} of ${repository} ${release.tag_name} does not match checksums.txt ` +
          `(expected ${expected}, got ${sha256}); nothing was installed`,
        { repository, asset: asset.name, expected, actual: sha256 },
        'Do not use this download: try again, or tell the publisher.',
      );
    }
    mkdirSync(req.parentDir, { recursive: true });
    // The staging folder names its owner, so one left by a killed install is removed by the next.
    const dirs = new PrivateTempDirs(req.parentDir);
    dirs.sweep(STAGING);
    const stagingDir = dirs.make(STAGING);
    const staging = stagingDir.path;
    try {
      const archive = join(staging, 'archive.tar.gz');
      writeFileSync(archive, data);
      const unpacked = join(staging, 'unpacked');
      await unpackArchive(archive, unpacked, req.maxUnpackedBytes ?? MAX_UNPACKED_BYTES);
      const { name, dir } = await req.accept(unpacked, staging, version);
      const target = join(req.parentDir, name);
      if (existsSync(target) && !req.force) throw req.exists(target, name);
      const now = new Date().toISOString();
      const source_data = { repository, version, asset: asset.name, sha256, files_sha256: folderDigest(dir) };
      writeInstallState(dir, {
        name,
        enabled: true,
        source_data: { ...source_data, installed_at: req.installedAt ?? now, updated_at: now },
      });
      swapIn(dir, target, join(staging, 'replaced'));
      return { name, dir: target, repository, version, asset: asset.name, sha256 };
    } finally {
      stagingDir.remove();
    }
  }

  /** The asset's line of the release's checksums.txt (`<sha256>  <name>`, as Go's release tools write). */
  private async checksumOf(repository: string, release: Release, assetName: string): Promise<string> {
    const file = release.assets.find((a) => /(^|[._-])checksums\.txt$|^sha256sums(\.txt)?$/i.test(a.name));
    if (!file) throw noAsset(repository, release, 'it has no checksums.txt');
    const text = (await this.client.download(file.browser_download_url, MAX_CHECKSUMS_BYTES)).toString('utf8');
    for (const line of text.split('\n')) {
      const [hex, name] = line.trim().split(/\s+/);
      if (name?.replace(/^\*/, '') === assetName && /^[0-9a-f]{64}$/i.test(hex)) return hex.toLowerCase();
    }
    throw noAsset(repository, release, `its ${file.name} has no SHA-256 line for ${assetName}`);
  }
}

/** Moves `dir` to `target`; a folder already there goes to `aside` first and comes back on failure. */
function swapIn(dir: string, target: string, aside: string): void {
  const replacing = existsSync(target);
  if (replacing) renameSync(target, aside);
  try {
    renameSync(dir, target);
  } catch (err) {
    if (replacing) renameSync(aside, target);
    throw new AwfError(ErrorCodes.SYSTEM_IO, `cannot move the install into ${target}: ${(err as Error).message}`, {
      target,
    });
  }
}

function noAsset(repository: string, release: Release, why: string): AwfError {
  return new AwfError(
    ErrorCodes.RELEASE_NO_ASSET,
    `release ${release.tag_name} of ${repository} cannot be installed: ${why}`,
    { repository, tag: release.tag_name, assets: release.assets.map((a) => a.name) },
    'Ask the publisher to attach a .tar.gz archive and a checksums.txt (`<sha256>  <file>` lines) to the release.',
  );
}
