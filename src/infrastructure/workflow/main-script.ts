import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The built CLI that agents start as `mcp-serve`: `dist/main.js`, found from wherever this
 * code runs — the tsc output (dist/infrastructure/workflow), a single-file bundle in dist/,
 * or the sources under jest (then the repository's build output).
 */
export function mainScriptPath(): string {
  const candidates = [resolve(__dirname, 'main.js'), resolve(__dirname, '..', '..', 'main.js'), resolve(__dirname, '..', '..', '..', 'dist', 'main.js')];
  return candidates.find((c) => existsSync(c)) ?? candidates[candidates.length - 1];
}
