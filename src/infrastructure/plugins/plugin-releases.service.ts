import { existsSync, lstatSync, renameSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { PinFile } from '../../domain/policy/tool-pin';
import { ToolPinStore } from '../core/tool-pin.store';
import { folderDigest, readInstallState, writeInstallState } from '../releases/install-state';
import { ReleaseInstaller } from '../releases/release-installer';
import { parseReleaseSource, type ReleaseSource } from '../releases/release-source';
import { isNewer, type ReleaseAsset } from '../releases/release-version';
import { PluginDiscovery } from './plugin-discovery.service';
import { pluginInstallDir, PluginInstaller, pluginRoot } from './plugin-installer.service';
import { readPlugin } from './plugin-manifest';
import { PluginStateStore } from './plugin-state.store';

/** Go's names for this machine, as plugin release assets spell them (`<repo>_<ver>_<os>_<arch>.tar.gz`). */
const GOOS: Record<string, string> = { linux: 'linux', darwin: 'darwin', win32: 'windows', freebsd: 'freebsd' };
const GOARCH: Record<string, string> = { x64: 'amd64', arm64: 'arm64', ia32: '386', arm: 'arm' };

export interface VerifyLine {
  name: string;
  /** LINKED: a linked folder (`install --link`) is the author's own, used as it changes: not checked. */
  status: 'PASS' | 'FAIL' | 'MISSING' | 'UPDATED' | 'LINKED';
  sha256?: string;
  expected?: string;
}

/**
 * `awf plugin install owner/repo[@version]`, `update`, `verify` and `search`: plugins published
 * as releases, through the same ReleaseInstaller as workflow packs. What is unpacked must start
 * (handshake, Init, ListOperations) before it is renamed into place, as for a folder install.
 */
@Injectable()
export class PluginReleases {
  constructor(
    private readonly releases: ReleaseInstaller,
    private readonly installer: PluginInstaller,
    private readonly discovery: PluginDiscovery,
    private readonly state: PluginStateStore,
  ) {}

  async install(
    sourceText: string,
    options: { force?: boolean; prerelease?: boolean; progress?(line: string): void } = {},
  ) {
    const source = parseReleaseSource(sourceText);
    const short = source.repository.split('/')[1].replace(/^awf-plugin-/, '');
    return this.installInto(source, pluginInstallDir(), short, options);
  }

  async update(name: string, options: { prerelease?: boolean; progress?(line: string): void } = {}) {
    const plugin = this.discovery.find(name) ?? this.discovery.find(name.replace(/^awf-plugin-/, ''));
    const from = plugin && readInstallState(plugin.dir)?.source_data;
    if (!plugin || !from || !/^[^/]+\/[^/]+$/.test(from.repository)) {
      throw new AwfError(
        ErrorCodes.RELEASE_INVALID_SOURCE,
        `plugin "${name}" ${plugin ? 'was not installed from a release' : 'is not installed'}, so it cannot be updated`,
        { plugin: name },
        'Install it from its releases first: awf plugin install owner/repo.',
      );
    }
    const { version } = await this.releases.resolve({ repository: from.repository }, options.prerelease);
    if (!isNewer(version, from.version)) return { name: plugin.name, from: from.version, to: undefined };
    const source = { repository: from.repository, version };
    const parent = dirname(plugin.dir);
    await this.installInto(source, parent, basename(plugin.dir), { ...options, force: true }, from.installed_at);
    return { name: plugin.name, from: from.version, to: version };
  }

  /** AWF's verify: each plugin's files against the digest recorded at install (`--update` records anew). */
  verify(names: string[], update = false): VerifyLine[] {
    const plugins = names.length
      ? names.map((n) => this.discovery.find(n) ?? notInstalled(n))
      : this.discovery.discover();
    return plugins.map((p) => {
      if (lstatSync(p.dir).isSymbolicLink()) return { name: p.name, status: 'LINKED' };
      const state = readInstallState(p.dir);
      const sha256 = folderDigest(p.dir);
      if (update) {
        const now = new Date().toISOString();
        const source_data = state?.source_data ?? { repository: p.dir, version: p.version, installed_at: now };
        writeInstallState(p.dir, {
          name: p.name,
          enabled: true,
          source_data: { ...source_data, files_sha256: sha256, updated_at: now },
        });
        return { name: p.name, status: 'UPDATED', sha256 };
      }
      const expected = state?.source_data.files_sha256;
      if (!expected) return { name: p.name, status: 'MISSING' };
      return expected === sha256
        ? { name: p.name, status: 'PASS', sha256 }
        : { name: p.name, status: 'FAIL', sha256, expected };
    });
  }

  search(query?: string) {
    return this.releases.client.search('awf-plugin', query);
  }

  private async installInto(
    source: ReleaseSource,
    parentDir: string,
    folder: string,
    options: { force?: boolean; prerelease?: boolean; progress?(line: string): void },
    installedAt?: string,
  ) {
    let operations: string[] = [];
    let pin: PinFile | undefined;
    const done = await this.releases.install({
      source,
      parentDir,
      force: options.force,
      prerelease: options.prerelease,
      progress: options.progress,
      installedAt,
      pickAsset: platformAsset,
      accept: async (unpacked, staging) => {
        const root = pluginRoot(unpacked);
        if (!existsSync(join(root, 'plugin.yaml'))) throw invalidRelease(source, 'its archive has no plugin.yaml');
        const dir = join(staging, folder);
        renameSync(root, dir);
        const plugin = readPlugin(dir);
        if (plugin.problem) throw invalidRelease(source, plugin.problem);
        ({ operations, pin } = await this.installer.startCheck(plugin));
        return { name: folder, dir };
      },
      exists: (target) =>
        new AwfError(
          ErrorCodes.PLUGIN_TARGET_EXISTS,
          `plugin ${folder} is already installed in ${target}`,
          { plugin: folder, dir: target },
          `Pass --force to reinstall it, or move to its newest release: awf plugin update ${folder}.`,
        ),
    });
    const plugin = readPlugin(done.dir);
    this.state.recordInstall(plugin.name, { repository: done.repository, version: done.version });
    if (pin) new ToolPinStore().repin(pin);
    return { ...done, plugin: plugin.name, operations };
  }
}

function platformAsset(assets: ReleaseAsset[]): ReleaseAsset | string {
  const os = GOOS[process.platform] ?? process.platform;
  const arch = GOARCH[process.arch] ?? process.arch;
  const wanted = `_${os}_${arch}.tar.gz`;
  const found = assets.find((a) => a.name.endsWith(wanted));
  if (found) return found;
  const offered = assets.filter((a) => a.name.endsWith('.tar.gz')).map((a) => a.name);
  return `it has no asset for ${os}/${arch} (*${wanted})${offered.length ? `; it offers ${offered.join(', ')}` : ''}`;
}

function invalidRelease(source: ReleaseSource, what: string): AwfError {
  return new AwfError(
    ErrorCodes.PLUGIN_INVALID_PACKAGE,
    `${source.repository}${source.version ? `@${source.version}` : ''}: ${what}`,
    { repository: source.repository },
    'A plugin release archive holds plugin.yaml and its executable (awf-plugin-<name>) at its root.',
  );
}

function notInstalled(name: string): never {
  throw new AwfError(
    ErrorCodes.PLUGIN_NOT_FOUND,
    `plugin "${name}" is not installed`,
    { plugin: name },
    '`awf plugin list` shows the installed plugins.',
  );
}
