import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface SelfCommand {
  command: string;
  args: string[];
}

/**
 * How to start this awf again as a child process, e.g. `awf mcp-serve` for an agent: the
 * running node binary and dist/main.js, exactly what a user would type. `awf run` and
 * `awf mcp-config` both start the proxy through this one helper.
 */
export function selfCommand(args: string[], distDir: string = findDist(__dirname)): SelfCommand {
  return { command: process.execPath, args: [join(distDir, 'main.js'), ...args] };
}

/** dist/ holds main.js; this file sits in dist/ (bundled) or below it (tsc output, or src/ under ts-jest). */
function findDist(from: string): string {
  for (let dir = from; dirname(dir) !== dir; dir = dirname(dir)) {
    if (existsSync(join(dir, 'main.js')) && existsSync(join(dir, '..', 'package.json'))) return dir;
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'dist');
  }
  return join(from, 'dist');
}
