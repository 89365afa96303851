import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { pluginSearchDirs } from './plugin-paths';
import { type DiscoveredPlugin, readPlugin } from './plugin-manifest';

/**
 * Finds installed plugins: every direct sub-folder of a search directory that holds a
 * `plugin.yaml`. Across directories the first plugin with a given name wins, so a
 * project's `.awf/plugins` shadows the user's. Reads files only; starts nothing.
 */
@Injectable()
export class PluginDiscovery {
  discover(): DiscoveredPlugin[] {
    const found = new Map<string, DiscoveredPlugin>();
    for (const dir of pluginSearchDirs()) {
      const entries = readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory())
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

  find(name: string): DiscoveredPlugin | undefined {
    return this.discover().find((p) => p.name === name);
  }
}
