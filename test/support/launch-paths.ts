import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { ProxyConfig } from '../../src/domain/proxy/proxy-config';
import { findExecutable } from '../../src/infrastructure/tools/executable.lookup';
import { INSTALLED_ENV, type InstalledPackage } from './installed-package';

/**
 * The ways `awf mcp-serve` starts, for e2e suites to run against each:
 * - `plain`: the command `awf run` hands every agent, made by the product's own launch helper
 *   (`selfCommand`): `node dist/main.js mcp-serve --config=…`, what a user types;
 * - `installed`: the same helper of the package `npm pack` made, installed into a scratch
 *   project once per jest run (test/support/installed-package.ts, jest globalSetup).
 * A path that cannot run here carries `skip`, the reason, which the skip reporter prints.
 */
export interface LaunchPath {
  name: 'plain' | 'installed';
  launch(configFile: string, config: ProxyConfig): { command: string; args: string[] };
  skip?: string;
}

type SelfCommandModule = { selfCommand: (args: string[]) => { command: string; args: string[] } };

/** The product's launch helper, loaded by `load` (from the sources, or the installed package's dist/). */
function productLaunch(load: () => SelfCommandModule): LaunchPath['launch'] {
  return (file) => load().selfCommand(['mcp-serve', `--config=${file}`]);
}

/** The package jest's globalSetup packed and installed (`npm install --ignore-scripts`), if it did. */
export function installedPackage(): InstalledPackage | undefined {
  const file = process.env[INSTALLED_ENV];
  return file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as InstalledPackage) : undefined;
}

export const PLAIN: LaunchPath = {
  name: 'plain',
  launch: productLaunch(() => jest.requireActual('../../src/infrastructure/core/self-command')),
};

export function installedPath(): LaunchPath {
  const pkg = installedPackage();
  if (!pkg)
    return {
      name: 'installed',
      launch: () => {
        throw new Error('no installed package');
      },
      skip: `no installed package (${INSTALLED_ENV} unset: run through jest's globalSetup)`,
    };
  if (pkg.error)
    return {
      name: 'installed',
      launch: () => {
        throw new Error(pkg.error);
      },
      skip: `npm pack + install failed: ${pkg.error}`,
    };
  const dist = join(pkg.packageDir, 'dist');
  return {
    name: 'installed',
    launch: productLaunch(() => jest.requireActual(join(dist, 'infrastructure/core/self-command.js'))),
  };
}

/** Every launch path: the full matrix. */
export function launchPaths(): LaunchPath[] {
  return [PLAIN, installedPath()];
}

/** ripgrep on PATH, or hidden from it: the Grep suites run under both in one jest run. */
export interface RipgrepVariant {
  name: 'rg on PATH' | 'rg hidden';
  /** PATH for the mcp-serve process. */
  path: string;
  skip?: string;
}

/** Where a real rg comes from without installing one: the user's, else the pinned codex package's. */
export function ripgrepSource(): string | undefined {
  const own = findExecutable('rg', process.env.PATH);
  if (own) return own;
  const { agentCliCacheDir } = jest.requireActual(
    '../agents/agent-clis.installer',
  ) as typeof import('../agents/agent-clis.installer');
  const vendored = join(
    agentCliCacheDir(),
    'node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/codex-path/rg',
  );
  return existsSync(vendored) ? vendored : undefined;
}

export function ripgrepVariants(): RipgrepVariant[] {
  const rg = ripgrepSource();
  const withoutRg = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir && !findExecutable('rg', dir))
    .join(delimiter);
  const present: RipgrepVariant = rg
    ? { name: 'rg on PATH', path: [join(rg, '..'), withoutRg].join(delimiter) }
    : {
        name: 'rg on PATH',
        path: withoutRg,
        skip: 'no ripgrep: none on PATH and the pinned codex package is not installed (npm run test:agents installs it)',
      };
  return [present, { name: 'rg hidden', path: withoutRg }];
}

/** `describe.each` over paths, each skipped one with its reason in its title (the skip reporter prints it). */
export function describeEach<T extends { name: string; skip?: string }>(
  items: T[],
  title: string,
  body: (item: T) => void,
): void {
  for (const item of items) {
    const named = `${title} [${item.name}]`;
    if (item.skip) describe.skip(`${named} — SKIPPED: ${item.skip}`, () => body(item));
    else describe(named, () => body(item));
  }
}
