import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const STATE_FILE = 'state.json';

/**
 * `<installed folder>/state.json`, AWF's pack state: `{name, enabled, source_data}`. awf adds
 * to `source_data` the release asset and its SHA-256 (from checksums.txt) and `files_sha256`, a
 * digest of the installed files that `awf plugin verify` compares against.
 */
export interface InstallState {
  name: string;
  enabled: boolean;
  source_data: {
    repository: string;
    version: string;
    asset?: string;
    sha256?: string;
    files_sha256?: string;
    installed_at: string;
    updated_at: string;
  };
}

export function readInstallState(dir: string): InstallState | undefined {
  try {
    const state = JSON.parse(readFileSync(join(dir, STATE_FILE), 'utf8')) as InstallState;
    return typeof state?.source_data?.repository === 'string' ? state : undefined;
  } catch {
    return undefined;
  }
}

export function writeInstallState(dir: string, state: InstallState): void {
  writeFileSync(join(dir, STATE_FILE), JSON.stringify(state, null, 2) + '\n', { mode: 0o644 });
}

/**
 * One SHA-256 over every file under `dir` (paths sorted, each with its exec bit and content
 * digest); state.json itself is left out. Changes when any file is added, removed or altered.
 */
export function folderDigest(dir: string): string {
  const hash = createHash('sha256');
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = rel ? `${rel}/${name}` : name;
      if (path === STATE_FILE) continue;
      const info = statSync(join(dir, path));
      if (info.isDirectory()) walk(path);
      else if (info.isFile()) {
        const content = createHash('sha256')
          .update(readFileSync(join(dir, path)))
          .digest('hex');
        hash.update(`${path}\0${info.mode & 0o111 ? 'x' : '-'}\0${content}\n`);
      }
    }
  };
  walk('');
  return hash.digest('hex');
}
