import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import type { PromptDir, PromptFile, PromptLibrary } from '../../domain/ports/prompt-library.port';

/** AWF's prompt directories on disk (cli/config.go BuildPromptPaths), local before global. */
export class FsPromptLibrary implements PromptLibrary {
  constructor(
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly cwd: string = process.cwd(),
  ) {}

  searchPaths(): PromptDir[] {
    const dirs: PromptDir[] = (this.env.AWF_PROMPTS_PATH ?? '')
      .split(':')
      .filter(Boolean)
      .map((dir) => ({ dir: resolve(this.cwd, dir), source: 'env' }));
    dirs.push({ dir: join(this.cwd, '.awf', 'prompts'), source: 'local' });
    const configHome = this.env.AWF_CONFIG_HOME || join(this.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'awf');
    dirs.push({ dir: join(configHome, 'prompts'), source: 'global' });
    return dirs;
  }

  /** In search order, then by name; the first directory holding a name wins. */
  list(): PromptFile[] {
    const seen = new Set<string>();
    const found: PromptFile[] = [];
    for (const { dir, source } of this.searchPaths()) {
      for (const path of filesUnder(dir)) {
        const name = relative(dir, path).split(sep).join('/');
        if (seen.has(name)) continue;
        seen.add(name);
        const info = statSync(path);
        found.push({ name, source, path, size: info.size, modTime: localTime(info.mtime) });
      }
    }
    return found;
  }
}

/** Regular files below `dir` (a symlink counts when it points at a file), sorted; none when it is no directory. */
function filesUnder(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .map((e) => join(e.parentPath, e.name))
    .filter((path) => {
      try {
        return statSync(path).isFile();
      } catch {
        return false;
      }
    })
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function localTime(d: Date): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
