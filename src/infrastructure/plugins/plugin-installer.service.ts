import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync } from 'node:fs';
import { renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { Injectable } from '@nestjs/common';
import { AwfError, isAwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { PinFile } from '../../domain/policy/tool-pin';
import { PluginDiscovery } from './plugin-discovery.service';
import { PluginHost } from './plugin-host.service';
import { type DiscoveredPlugin, readPlugin } from './plugin-manifest';
import { pluginSearchDirs } from './plugin-paths';
import { PluginStateStore } from './plugin-state.store';
import { pluginPin } from './plugin-pins';
import { runtimeFilter } from './runtime-packages';
import { ToolPinStore } from '../core/tool-pin.store';
import { folderDigest, writeInstallState } from '../releases/install-state';
import { unpackArchive } from '../releases/release-archive';

export interface InstallResult {
  name: string;
  version: string;
  dir: string;
  how: 'copied' | 'linked' | 'unpacked';
  source: string;
  operations: string[];
}

export interface RemoveResult {
  name: string;
  dir: string;
  /** The folder a removed link pointed to: left as it was. */
  linkedTo?: string;
}

/**
 * `awf plugin install <dir|tgz>` and `awf plugin remove <name>`. An install is staged next to
 * its destination, started once (handshake, Init, ListOperations) and stopped, and only then
 * renamed into place: a plugin that does not start is never installed, and an interrupted
 * install leaves no half-copied folder where discovery looks. It goes where AWF puts plugins:
 * the first existing search directory, else `./.awf/plugins` (created).
 */
@Injectable()
export class PluginInstaller {
  constructor(
    private readonly discovery: PluginDiscovery,
    private readonly host: PluginHost,
    private readonly state: PluginStateStore,
  ) {}

  async install(
    source: string,
    options: { link?: boolean; force?: boolean; cwd?: string } = {},
  ): Promise<InstallResult> {
    const from = resolve(options.cwd ?? process.cwd(), source);
    const kind = sourceKind(from, source);
    if (options.link && kind !== 'dir') throw invalid(source, 'only a folder can be linked; a tarball is unpacked');
    const pluginsDir = pluginInstallDir(options.cwd);
    mkdirSync(pluginsDir, { recursive: true });
    const staging = mkdtempSync(join(pluginsDir, '.awf-install-'));
    try {
      const staged = options.link ? from : await this.stage(from, kind, staging, source);
      const plugin = readPlugin(staged);
      if (plugin.problem) throw invalid(source, plugin.problem);
      const target = join(pluginsDir, plugin.name);
      if (lstatOrUndefined(target) && !options.force) {
        throw new AwfError(
          ErrorCodes.PLUGIN_TARGET_EXISTS,
          `plugin ${plugin.name} is already installed in ${target}`,
          { plugin: plugin.name, dir: target },
          `Pass --force to replace it, or remove it first: awf plugin remove ${plugin.name}.`,
        );
      }
      const { operations, pin } = await this.startCheck(plugin);
      const record = { repository: from, version: plugin.version };
      if (!options.link) recordFolder(staged, plugin.name, record);
      rmSync(target, { recursive: true, force: true });
      if (options.link) symlinkSync(from, target, 'dir');
      else renameSync(join(staging, plugin.name), target);
      this.state.recordInstall(plugin.name, record);
      new ToolPinStore().repin(pin);
      const how = options.link ? 'linked' : kind === 'dir' ? 'copied' : 'unpacked';
      return { name: plugin.name, version: plugin.version, dir: target, how, source: from, operations };
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }

  remove(name: string, options: { keepData?: boolean } = {}): RemoveResult {
    const plugin = this.discovery.find(name);
    if (!plugin) {
      const installed = this.discovery.discover().map((p) => p.name);
      throw new AwfError(
        ErrorCodes.PLUGIN_NOT_FOUND,
        `plugin "${name}" is not installed`,
        { plugin: name },
        `Installed plugins: ${installed.join(', ') || '(none)'}. See \`awf plugin list\`.`,
      );
    }
    const isLink = lstatSync(plugin.dir).isSymbolicLink();
    const linkedTo = isLink ? resolve(plugin.dir, '..', readlinkSync(plugin.dir)) : undefined;
    rmSync(plugin.dir, { recursive: !isLink, force: true });
    if (!options.keepData) this.state.forget(name);
    return { name, dir: plugin.dir, ...(linkedTo ? { linkedTo } : {}) };
  }

  /**
   * The copy (production dependencies only) or the unpacked tarball, at `<staging>/<name>` (AWF
   * finds `awf-plugin-<folder>`).
   */
  private async stage(from: string, kind: 'dir' | 'tarball', staging: string, source: string): Promise<string> {
    let root = from;
    if (kind === 'tarball') {
      const unpacked = join(staging, '.unpacked');
      await unpackArchive(from, unpacked);
      root = pluginRoot(unpacked);
    }
    if (!existsSync(join(root, 'plugin.yaml'))) throw invalid(source, 'has no plugin.yaml');
    const name = readPlugin(root).name;
    const dest = join(staging, name);
    if (kind === 'tarball') renameSync(root, dest);
    else {
      // What the plugin runs with, as `npm install --omit=dev` would leave it: no devDependencies.
      const runtime = runtimeFilter(from);
      const filter = (f: string) => basename(f) !== '.git' && (runtime?.(f) ?? true);
      cpSync(from, dest, { recursive: true, verbatimSymlinks: true, filter });
    }
    return dest;
  }

  /**
   * Starts the plugin once, as a step would, and stops it: what it offers and the pin of its
   * tools (for the caller to write once the plugin is in place), or why it cannot run.
   */
  async startCheck(plugin: DiscoveredPlugin): Promise<{ operations: string[]; pin: PinFile }> {
    try {
      const running = await this.host.acquire(plugin);
      return { operations: running.operations.map((o) => o.name), pin: pluginPin(plugin, running.operations) };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      throw new AwfError(
        isAwfError(err) ? err.code : ErrorCodes.PLUGIN_START_FAILED,
        `plugin ${plugin.name} was not installed: it does not start: ${message}`,
        { plugin: plugin.name },
        'Run its own tests, and check that its folder holds everything it needs (node_modules included); ' +
          'a folder is copied without its devDependencies, so what it requires at run time belongs in dependencies.',
      );
    } finally {
      await this.host.stop(plugin.name);
    }
  }
}

/** Where installs go, as in AWF: the first existing plugin search directory, else ./.awf/plugins. */
export function pluginInstallDir(cwd?: string): string {
  return pluginSearchDirs(process.env, cwd)[0] ?? resolve(cwd ?? process.cwd(), '.awf/plugins');
}

/** npm pack puts everything under package/; a release archive may have one top folder too. */
export function pluginRoot(unpacked: string): string {
  const top = readdirSync(unpacked);
  return !existsSync(join(unpacked, 'plugin.yaml')) &&
    top.length === 1 &&
    statSync(join(unpacked, top[0])).isDirectory()
    ? join(unpacked, top[0])
    : unpacked;
}

/** state.json in a copied or unpacked plugin, so `awf plugin verify` can tell when its files change. */
function recordFolder(dir: string, name: string, source: { repository: string; version: string }): void {
  const now = new Date().toISOString();
  const source_data = { ...source, files_sha256: folderDigest(dir), installed_at: now, updated_at: now };
  writeInstallState(dir, { name, enabled: true, source_data });
}

function sourceKind(from: string, source: string): 'dir' | 'tarball' {
  const info = (() => {
    try {
      return statSync(from);
    } catch {
      return undefined;
    }
  })();
  if (!info) throw invalid(source, 'does not exist');
  if (info.isDirectory()) return 'dir';
  if (info.isFile() && /\.(tgz|tar\.gz|tar)$/.test(from)) return 'tarball';
  throw invalid(source, 'is neither a plugin folder nor a .tgz/.tar.gz/.tar archive');
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function invalid(source: string, what: string): AwfError {
  return new AwfError(
    ErrorCodes.PLUGIN_INVALID_PACKAGE,
    `${source} ${what}`,
    { source },
    'Give a plugin folder (it holds plugin.yaml) or a tarball of one (npm pack of the plugin project).',
  );
}
