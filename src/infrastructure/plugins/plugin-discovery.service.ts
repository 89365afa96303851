import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { pluginSearchDirs } from './plugin-paths';
import { type DiscoveredPlugin, readPlugin } from './plugin-manifest';

/**
 * Finds installed plugins: every direct sub-folder of a search directory that holds a
 * `plugin.yaml`, a symbolic link to a folder included (`ln -s ~/weather .awf/plugins/`).
 * Across directories the first plugin with a given name wins, so a project's
 * `.awf/plugins` shadows the user's. Reads files only; starts nothing. `projectDir` is
 * where `./.awf/plugins` is looked for: the project of the step (`mcp-serve` may run
 * elsewhere), else the working directory.
 */
@Injectable()
export class PluginDiscovery {
  discover(projectDir?: string): DiscoveredPlugin[] {
    const found = new Map<string, DiscoveredPlugin>();
    for (const dir of pluginSearchDirs(process.env, projectDir)) {
      const entries = readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory() || (e.isSymbolicLink() && isDirectory(join(dir, e.name))))
        .map((e) => e.name)
        .sort();
      for (const entry of entries) {
        const pluginDir = join(dir, entry);
        if (!existsSync(join(pluginDir, 'plugin.yaml'))) continue;
        const plugin = readPlugin(pluginDir);
        if (!found.has(plugin.name)) found.set(plugin.name, plugin);
      }
    }
    return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  find(name: string, projectDir?: string): DiscoveredPlugin | undefined {
    return this.discover(projectDir).find((p) => p.name === name);
  }
}

/** A dangling link, or a link to a file, is not a plugin folder. */
function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
