import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { parse } from 'yaml';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { type InstallState, readInstallState } from '../releases/install-state';
import { ReleaseInstaller } from '../releases/release-installer';
import { parseReleaseSource } from '../releases/release-source';
import { isNewer } from '../releases/release-version';
import { findPackDir, globalPacksDir, packDirs, projectPacksDir } from '../workflow/pack-paths';
import { type PackManifest, readPackManifest } from './pack-manifest';

/**
 * The AWF version whose command line awf implements: packs state `awf_version` against AWF's
 * version line, so that is what their constraint is checked against (docs/packs.md).
 */
export const AWF_SURFACE_VERSION = '0.11.0';

export interface InstalledPack {
  name: string;
  dir: string;
  scope: 'local' | 'global';
  manifest?: PackManifest;
  state?: InstallState;
  /** Why the manifest cannot be read; the pack is still listed. */
  problem?: string;
}

export interface PackInstallOptions {
  global?: boolean;
  force?: boolean;
  cwd?: string;
  progress?(line: string): void;
}

/** `awf workflow install|list|info|update|remove|search`: workflow packs from releases. */
@Injectable()
export class PackService {
  constructor(private readonly releases: ReleaseInstaller = new ReleaseInstaller()) {}

  async install(sourceText: string, options: PackInstallOptions = {}) {
    const source = parseReleaseSource(sourceText);
    const cwd = options.cwd ?? process.cwd();
    if (!options.global && !existsSync(join(cwd, '.awf'))) {
      throw new AwfError(
        ErrorCodes.PACK_NO_PROJECT,
        'not in an awf project (no .awf/ here): a pack installs into .awf/workflow-packs',
        { cwd },
        'Run `awf init` first, or pass --global to install it for your user.',
      );
    }
    const name = source.repository.split('/')[1].replace(/^awf-workflow-/, '');
    const parentDir = options.global ? globalPacksDir() : projectPacksDir(cwd);
    if (existsSync(join(parentDir, name)) && !options.force) throw exists(join(parentDir, name), name);
    return this.installInto(source, parentDir, name, { force: options.force, progress: options.progress });
  }

  list(cwd = process.cwd()): InstalledPack[] {
    const seen = new Map<string, InstalledPack>();
    for (const { dir, scope } of packDirs(process.env, cwd)) {
      if (!isDir(dir)) continue;
      for (const name of readdirSync(dir).sort()) {
        if (name.startsWith('.') || seen.has(name) || !isDir(join(dir, name))) continue;
        seen.set(name, describe(join(dir, name), name, scope));
      }
    }
    return [...seen.values()];
  }

  info(name: string, cwd = process.cwd()) {
    const pack = this.find(name, cwd);
    const workflows = (pack.manifest?.workflows ?? []).map((wf) => ({
      name: wf,
      description: descriptionOf(join(pack.dir, 'workflows', `${wf}.yaml`)),
    }));
    const readmeFile = join(pack.dir, 'README.md');
    const readme = existsSync(readmeFile) ? readFileSync(readmeFile, 'utf8').slice(0, 1024 * 1024) : undefined;
    return { ...pack, workflows, readme };
  }

  /** Moves an installed pack to the newest stable release of the repository it came from. */
  async update(name: string, progress?: (line: string) => void) {
    const pack = this.find(name);
    const from = pack.state?.source_data;
    if (!from) {
      throw new AwfError(
        ErrorCodes.PACK_NOT_FOUND,
        `workflow pack ${pack.name} has no state.json naming its release, so it cannot be updated`,
        { dir: pack.dir },
        'Install it again from its repository: awf workflow install owner/repo --force.',
      );
    }
    progress?.(`Checking ${pack.name} for updates (current: ${from.version})...`);
    const { version } = await this.releases.resolve({ repository: from.repository });
    if (!isNewer(version, from.version)) return { name: pack.name, from: from.version, to: undefined };
    const source = { repository: from.repository, version };
    const parent = join(pack.dir, '..');
    await this.installInto(source, parent, pack.name, { force: true, progress, installedAt: from.installed_at });
    return { name: pack.name, from: from.version, to: version };
  }

  remove(name: string): InstalledPack {
    const pack = this.find(name);
    rmSync(pack.dir, { recursive: true, force: true });
    return pack;
  }

  search(query?: string) {
    return this.releases.client.search('awf-workflow', query);
  }

  find(name: string, cwd = process.cwd()): InstalledPack {
    const found = findPackDir(name, process.env, cwd);
    if (!found) {
      const installed = this.list(cwd).map((p) => p.name);
      throw new AwfError(
        ErrorCodes.PACK_NOT_FOUND,
        `workflow pack "${name}" is not installed`,
        { pack: name, installed },
        `Installed packs: ${installed.join(', ') || '(none)'}. Install one with awf workflow install owner/repo.`,
      );
    }
    return describe(found.dir, found.name, found.scope);
  }

  private async installInto(
    source: { repository: string; version?: string },
    parentDir: string,
    name: string,
    options: { force?: boolean; progress?(line: string): void; installedAt?: string },
  ) {
    const done = await this.releases.install({
      source,
      parentDir,
      force: options.force,
      progress: options.progress,
      installedAt: options.installedAt,
      // Packs are YAML and scripts: one archive for every platform, the release's first .tar.gz.
      pickAsset: (assets) => assets.find((a) => a.name.endsWith('.tar.gz')) ?? 'it has no .tar.gz asset',
      accept: async (unpacked) => {
        const manifest = readPackManifest(unpacked, AWF_SURFACE_VERSION);
        if (manifest.name !== name) {
          throw new AwfError(
            ErrorCodes.PACK_INVALID_MANIFEST,
            `the pack's manifest names it "${manifest.name}", but ${source.repository} installs as "${name}"`,
            { manifest: manifest.name, expected: name },
            'The repository must be named awf-workflow-<name> (or <name>) after the manifest name.',
          );
        }
        return { name, dir: unpacked };
      },
      exists,
    });
    return { ...done, manifest: readPackManifest(done.dir) };
  }
}

function describe(dir: string, name: string, scope: 'local' | 'global'): InstalledPack {
  const state = readInstallState(dir);
  try {
    return { name, dir, scope, manifest: readPackManifest(dir), ...(state ? { state } : {}) };
  } catch (err) {
    return { name, dir, scope, problem: (err as Error).message, ...(state ? { state } : {}) };
  }
}

function descriptionOf(file: string): string | undefined {
  try {
    const wf = parse(readFileSync(file, 'utf8')) as { description?: unknown };
    return typeof wf?.description === 'string' ? wf.description : undefined;
  } catch {
    return undefined;
  }
}

function exists(target: string, name: string): AwfError {
  return new AwfError(
    ErrorCodes.PACK_EXISTS,
    `workflow pack already exists at ${target}`,
    { pack: name, dir: target },
    `Pass --force to replace it, or move to its newest release with: awf workflow update ${name}`,
  );
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
