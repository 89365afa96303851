import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';

/** The identity fields of a plugin definition, each optional. */
type Declared = Readonly<{ name?: string; version?: string; description?: string }>;

export interface PluginIdentity {
  name: string;
  version: string;
  description: string;
  /** Why plugin.yaml could not be read, when the definition needed it. */
  problem?: string;
}

const known = new WeakMap<Declared, PluginIdentity>();

/**
 * The plugin's name, version and description. They are written once, in its `plugin.yaml` (the
 * manifest awf and AWF read): a definition that leaves them out gets them from there, found next
 * to the running program or up to two folders above it (`dist/plugin.js` of the plugin folder),
 * else in the working directory. One a definition does give is used as given.
 */
export function pluginIdentity(definition: Declared): PluginIdentity {
  const cached = known.get(definition);
  if (cached) return cached;
  const given = { name: definition.name, version: definition.version, description: definition.description };
  let manifest: Record<string, unknown> = {};
  let problem: string | undefined;
  try {
    if (!given.name || !given.version || given.description === undefined) manifest = readManifest();
  } catch (err) {
    problem = `plugin.yaml cannot be read: ${(err as Error).message.split('\n')[0]}`;
  }
  const identity: PluginIdentity = {
    name: given.name ?? str(manifest.name),
    version: given.version ?? str(manifest.version),
    description: given.description ?? str(manifest.description),
    ...(problem ? { problem } : {}),
  };
  known.set(definition, identity);
  return identity;
}

function readManifest(): Record<string, unknown> {
  const file = manifestFile();
  if (!file) return {};
  const data: unknown = parse(readFileSync(file, 'utf8'));
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
}

function manifestFile(): string | undefined {
  const dirs: string[] = [];
  if (process.argv[1]) {
    let dir = dirname(realpathSync(process.argv[1]));
    for (let up = 0; up < 3; up++, dir = dirname(dir)) dirs.push(dir);
  }
  dirs.push(process.cwd());
  return dirs.map((d) => join(d, 'plugin.yaml')).find((f) => existsSync(f));
}

function str(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}
