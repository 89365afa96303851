import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The built CLI that agents start as `mcp-serve`: `dist/main.js` next to this compiled
 * file, or, when running from sources (tests), the repository's build output.
 */
export function mainScriptPath(): string {
  const beside = resolve(__dirname, '..', '..', 'main.js');
  return existsSync(beside) ? beside : resolve(__dirname, '..', '..', '..', 'dist', 'main.js');
}
