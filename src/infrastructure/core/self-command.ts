import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

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

/**
 * How to start this awf again as a child process, e.g. `awf mcp-serve` for an agent:
 * the running node binary and dist/main.js, plus the startup snapshot that `npm run build`
 * made when it was made by this very node in this very dist/ (a blob only works with the
 * binary that built it, and code in it resolves files from the build's `__dirname`).
 * AWF_NO_SNAPSHOT=1 turns the snapshot off. See docs/performance.md.
 */
export function selfCommand(args: string[], options: { distDir?: string; env?: NodeJS.ProcessEnv } = {}): SelfCommand {
  const dist = options.distDir ?? findDist(__dirname);
  const env = options.env ?? process.env;
  const flags = env.AWF_NO_SNAPSHOT === '1' ? [] : snapshotFlags(dist);
  return { command: process.execPath, args: [...flags, join(dist, 'main.js'), ...args] };
}

function snapshotFlags(dist: string): string[] {
  const blob = join(dist, 'awf-mcp.blob');
  try {
    const meta = JSON.parse(readFileSync(`${blob}.json`, 'utf8')) as SnapshotMeta;
    const usable = meta.node === process.version && meta.arch === process.arch && meta.platform === process.platform
      && (meta.dist === undefined || meta.dist === dist) && existsSync(blob);
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
