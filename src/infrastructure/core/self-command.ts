import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cachedSnapshot, ensureCachedSnapshot } from './snapshot-cache';

export interface SelfCommand {
  command: string;
  args: string[];
}

interface SnapshotMeta {
  node: string;
  arch: string;
  platform: string;
  /** V8 flags the blob was built with; it loads only under the same ones. */
  flags?: string[];
  /** Where it was built: code in the snapshot resolves files from `__dirname` as of the build. */
  dist?: string;
}

export interface SelfCommandOptions {
  distDir?: string;
  env?: NodeJS.ProcessEnv;
  /** Build the cached snapshot first when it is missing (a few seconds, once; ADR 121). */
  prepare?: boolean;
  /** Where a note goes when that build happens. */
  note?: (line: string) => void;
}

/**
 * How to start this awf again as a child process, e.g. `awf mcp-serve` for an agent:
 * the running node binary and dist/main.js, plus a startup snapshot when one fits: the one
 * `npm run build` made when it was made by this very node in this very dist/ (a blob only works
 * with the binary that built it, and code in it resolves files from the build's `__dirname`),
 * else the one built on first use for this node into the XDG cache (an installed package).
 * AWF_NO_SNAPSHOT=1 turns the snapshot off. See docs/performance.md.
 */
export function selfCommand(args: string[], options: SelfCommandOptions = {}): SelfCommand {
  const dist = options.distDir ?? findDist(__dirname);
  const env = options.env ?? process.env;
  const flags = env.AWF_NO_SNAPSHOT === '1' ? [] : snapshotFlags(dist, env, options);
  return { command: process.execPath, args: [...flags, join(dist, 'main.js'), ...args] };
}

function snapshotFlags(dist: string, env: NodeJS.ProcessEnv, options: SelfCommandOptions): string[] {
  const built = blobFlags(dist, join(dist, 'awf-mcp.blob'), `${join(dist, 'awf-mcp.blob')}.json`);
  if (built.length) return built;
  const cached = cachedSnapshot(dist, env);
  if (!cached) return [];
  if (options.prepare) ensureCachedSnapshot(dist, env, options.note);
  return blobFlags(dist, cached.blob, cached.meta);
}

/** The flags that start `blob`, when its .json says it fits this node and this dist/; else none. */
function blobFlags(dist: string, blob: string, metaFile: string): string[] {
  try {
    const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as SnapshotMeta;
    const usable =
      meta.node === process.version &&
      meta.arch === process.arch &&
      meta.platform === process.platform &&
      (meta.dist === undefined || meta.dist === dist) &&
      existsSync(blob);
    return usable ? [...(meta.flags ?? []), '--snapshot-blob', blob] : [];
  } catch {
    return [];
  }
}

/** dist/ holds main.js; this file sits in dist/ (bundled) or below it (tsc output, or src/ under ts-jest). */
function findDist(from: string): string {
  for (let dir = from; dirname(dir) !== dir; dir = dirname(dir)) {
    if (existsSync(join(dir, 'main.js')) && existsSync(join(dir, '..', 'package.json'))) return dir;
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'dist');
  }
  return join(from, 'dist');
}
