import { existsSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { clientConfigFile, MCP_CLIENTS, type McpClient } from './mcp-client-entry';

/**
 * awf up to 0.1 started `mcp-serve` from a V8 startup snapshot, and `awf mcp-config --write` put
 * that into clients' configs: `node … --snapshot-blob ~/.cache/awf/snapshots/<blob> …/main.js
 * mcp-serve --config=…`. awf builds no snapshot now, so such an entry stops working once its blob
 * is gone. `awf mcp-config` names the entries it finds (a rewrite with the same --name makes them
 * plain) and removes the cache only when no known client config refers to it any more.
 */
const SNAPSHOT_FLAG = '--snapshot-blob';

/** The names of the servers in a client's config text that start awf from a startup snapshot. */
export function snapshotEntryNames(client: McpClient, text: string): string[] {
  if (!text.includes(SNAPSHOT_FLAG)) return [];
  if (client === 'codex') {
    const names: string[] = [];
    let current: string | undefined;
    for (const line of text.split('\n')) {
      const header = /^\s*\[\s*mcp_servers\s*\.\s*(?:"([^"]*)"|([A-Za-z0-9_-]+))/.exec(line);
      if (header) current = header[1] ?? header[2];
      else if (/^\s*\[/.test(line)) current = undefined;
      else if (current && line.includes(SNAPSHOT_FLAG) && !names.includes(current)) names.push(current);
    }
    return names;
  }
  try {
    const data = JSON.parse(text) as Record<string, Record<string, unknown> | undefined>;
    const servers = data[client === 'opencode' ? 'mcp' : 'mcpServers'] ?? {};
    return Object.keys(servers).filter((name) => JSON.stringify(servers[name]).includes(SNAPSHOT_FLAG));
  } catch {
    return [];
  }
}

export function snapshotCacheDir(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'awf', 'snapshots');
}

/** Lines for the user about stale entries; removes the cache when nothing known refers to it. */
export function reviewSnapshotEntries(root: string, env: NodeJS.ProcessEnv): string[] {
  const notes: string[] = [];
  for (const client of MCP_CLIENTS) {
    const file = clientConfigFile(client, root, env);
    if (!existsSync(file)) continue;
    for (const name of snapshotEntryNames(client, readFileSync(file, 'utf8')))
      notes.push(
        `${file}: server "${name}" starts awf from a startup snapshot, which awf no longer builds; ` +
          `rewrite it with: awf mcp-config --client ${client} --name ${name} --write`,
      );
  }
  if (notes.length === 0) rmSync(snapshotCacheDir(env), { recursive: true, force: true });
  return notes;
}
