import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { basename, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';

/** How to start a plugin: an executable, or the manifest's `command:` run in the plugin's folder. */
export interface PluginLaunch {
  command: string;
  args: string[];
  cwd: string;
}

export interface DiscoveredPlugin {
  name: string;
  version: string;
  description: string;
  capabilities: string[];
  dir: string;
  launch?: PluginLaunch;
  /** Why the plugin cannot run (bad manifest, no executable); it is still listed. */
  problem?: string;
}

export const PLUGIN_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]*$/;
const VERSION_PATTERN = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;
const CAPABILITIES = ['operations', 'step_types', 'validators', 'events'];

/** Reads `<dir>/plugin.yaml`; never throws: a broken plugin comes back with a `problem`. */
export function readPlugin(dir: string): DiscoveredPlugin {
  const fallback: DiscoveredPlugin = { name: basename(dir), version: '', description: '', capabilities: [], dir };
  let raw: unknown;
  try {
    raw = parse(readFileSync(join(dir, 'plugin.yaml'), 'utf8'));
  } catch (err) {
    return { ...fallback, problem: `plugin.yaml cannot be read: ${(err as Error).message.split('\n')[0]}` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { ...fallback, problem: 'plugin.yaml is not a mapping' };
  const m = raw as Record<string, unknown>;
  const plugin: DiscoveredPlugin = {
    name: typeof m.name === 'string' ? m.name : fallback.name,
    version: typeof m.version === 'string' ? m.version : String(m.version ?? ''),
    description: typeof m.description === 'string' ? m.description : '',
    capabilities: Array.isArray(m.capabilities) ? m.capabilities.map(String) : [],
    dir,
  };
  const problem =
    typeof m.name !== 'string' || !PLUGIN_NAME_PATTERN.test(m.name)
      ? `name ${JSON.stringify(m.name)} must start with a letter and use only letters, digits, "_" and "-"`
      : !VERSION_PATTERN.test(plugin.version)
        ? `version ${JSON.stringify(m.version)} is not X.Y.Z`
        : plugin.capabilities.length === 0 || plugin.capabilities.some((c) => !CAPABILITIES.includes(c))
          ? `capabilities must list some of ${CAPABILITIES.join(', ')}`
          : m.command !== undefined && typeof m.command !== 'string' && !isStringArray(m.command)
            ? 'command must be a string or a list of strings'
            : undefined;
  if (problem) return { ...plugin, problem: `plugin.yaml: ${problem}` };
  const launch =
    m.command !== undefined ? commandLaunch(m.command as string | string[], dir) : binaryLaunch(dir, plugin.name);
  return launch
    ? { ...plugin, launch }
    : { ...plugin, problem: `no executable awf-plugin-${basename(dir)} in ${dir} and no command: in plugin.yaml` };
}

function commandLaunch(command: string | string[], dir: string): PluginLaunch | undefined {
  const [head, ...args] = Array.isArray(command) ? command : command.trim().split(/\s+/);
  if (!head) return undefined;
  // `node` means the Node that runs awf, so a TS plugin works without node on PATH.
  const exe = head === 'node' ? process.execPath : head.includes('/') && !isAbsolute(head) ? join(dir, head) : head;
  return { command: exe, args, cwd: dir };
}

/** AWF's rule: `<dir>/awf-plugin-<dirname>`, or `<dir>/<dirname>` when it already has the prefix. */
function binaryLaunch(dir: string, name: string): PluginLaunch | undefined {
  const base = basename(dir);
  const candidates = [base.startsWith('awf-plugin-') ? base : `awf-plugin-${base}`, `awf-plugin-${name}`];
  for (const file of candidates.map((c) => join(dir, c))) {
    if (isExecutable(file)) return { command: file, args: [], cwd: dir };
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    if (!existsSync(file) || !statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string');
}
