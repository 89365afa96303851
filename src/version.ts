import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The package version, read once; dist/ and src/ both sit one level below package.json. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const AWF_VERSION: string = (require('../package.json') as { version: string }).version;

/**
 * `awf --version`, as AWF prints it: the version, the commit and the build date. The build
 * writes dist/build-info.json; a tree run without a build says "unknown".
 */
export function versionText(dir: string = __dirname): string {
  let info: { commit?: string; built?: string } = {};
  try {
    info = JSON.parse(readFileSync(join(dir, 'build-info.json'), 'utf8')) as typeof info;
  } catch {
    // not built (ts-jest, a plain checkout): the version alone is still right
  }
  return `awf version ${AWF_VERSION}\ncommit: ${info.commit ?? 'unknown'}\nbuilt: ${info.built ?? 'unknown'}`;
}
