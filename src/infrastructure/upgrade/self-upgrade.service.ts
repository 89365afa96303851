import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { awfPackageRoot } from '../core/awf-package-root';
import { isNewer, tagVersion } from '../releases/release-version';
import { configuredRegistry, fetchPackument, type Packument } from './npm-registry.client';

/** How this awf was installed, and so how it is upgraded. */
export type Installation =
  | { kind: 'npm-global'; root: string }
  | { kind: 'project'; root: string; project: string; manager: 'npm' | 'pnpm' | 'yarn' | 'bun' }
  | { kind: 'checkout'; root: string };

export interface UpgradePlan {
  name: string;
  registry: string;
  current: string;
  target: string;
  /** False when already there (nothing to do without --force). */
  newer: boolean;
  installation: Installation;
  /** The command that installs `target` the way this awf was installed. */
  command: string[];
}

/**
 * `awf upgrade`: asks the configured npm registry for the package named in awf's own
 * package.json, and installs a newer version through the package manager that installed this
 * awf (a global npm install runs `npm install -g`; anything else gets the exact command to run).
 */
@Injectable()
export class SelfUpgrade {
  async plan(version: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<UpgradePlan> {
    const root = realpathSync(awfPackageRoot());
    const own = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
    const registry = configuredRegistry(env);
    const doc = await fetchPackument(registry, own.name);
    const latest = doc?.['dist-tags']?.latest;
    if (!doc || !latest || !isOurs(doc, latest)) {
      throw new AwfError(
        ErrorCodes.UPGRADE_NOT_PUBLISHED,
        doc
          ? `the package "${own.name}" on ${registry} is another package (no awf CLI with awf/plugin-sdk): ` +
              'awf is not published there'
          : `awf is not published on ${registry} (it has no package "${own.name}")`,
        { name: own.name, registry },
        'Upgrade the way you installed awf (a git checkout: git pull && npm ci && npm run build), ' +
          'or set npm_config_registry to the registry that publishes it.',
      );
    }
    const wanted = version === undefined ? latest : tagVersion(version);
    if (!wanted || !doc.versions[wanted]) {
      throw new AwfError(
        ErrorCodes.UPGRADE_NO_SUCH_VERSION,
        `${own.name} has no version ${version} on ${registry} (latest: ${latest})`,
        { name: own.name, version, latest },
        '`awf upgrade --check` shows the latest; give an exact version it lists.',
      );
    }
    const installation = installationOf(root, env);
    return {
      name: own.name,
      registry,
      current: own.version,
      target: wanted,
      newer: version !== undefined ? wanted !== own.version : isNewer(wanted, own.version),
      installation,
      command: commandFor(installation, `${own.name}@${wanted}`),
    };
  }

  /** Runs the plan's command (a global npm install only), its output on stderr. */
  install(plan: UpgradePlan): void {
    const [cmd, ...args] = plan.command;
    const r = spawnSync(cmd, args, { stdio: ['ignore', 2, 2], env: process.env });
    if (r.status === 0) return;
    throw new AwfError(
      ErrorCodes.UPGRADE_INSTALL_FAILED,
      `${plan.command.join(' ')} failed (${r.error?.message ?? `exit ${r.status ?? r.signal}`})`,
      { command: plan.command },
      'Run that command yourself; a global prefix you cannot write needs its owner ' +
        '(or a user prefix: npm config set prefix ~/.local).',
    );
  }
}

/** awf's own shape: an `awf` binary and the plugin SDK export, in the version the registry calls latest. */
function isOurs(doc: Packument, latest: string): boolean {
  const manifest = doc.versions?.[latest];
  return Boolean(manifest?.bin?.awf && manifest.exports?.['./plugin-sdk']);
}

function installationOf(root: string, env: NodeJS.ProcessEnv): Installation {
  const pnpm = /^(.*?)\/node_modules\/\.pnpm\//.exec(root);
  if (pnpm) return { kind: 'project', root, project: pnpm[1], manager: 'pnpm' };
  if (basename(dirname(root)) !== 'node_modules') return { kind: 'checkout', root };
  if (dirname(root) === globalRoot(env)) return { kind: 'npm-global', root };
  const project = dirname(dirname(root));
  const manager = existsSync(join(project, 'yarn.lock'))
    ? 'yarn'
    : existsSync(join(project, 'bun.lockb'))
      ? 'bun'
      : existsSync(join(project, 'pnpm-lock.yaml'))
        ? 'pnpm'
        : 'npm';
  return { kind: 'project', root, project, manager };
}

function globalRoot(env: NodeJS.ProcessEnv): string | undefined {
  try {
    return realpathSync(execFileSync('npm', ['root', '-g'], { encoding: 'utf8', timeout: 30_000, env }).trim());
  } catch {
    return undefined;
  }
}

function commandFor(installation: Installation, spec: string): string[] {
  if (installation.kind !== 'project') return ['npm', 'install', '-g', spec];
  return installation.manager === 'npm' ? ['npm', 'install', spec] : [installation.manager, 'add', spec];
}
