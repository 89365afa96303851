import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { McpSession } from './mcp-client';

export interface CallOutcome {
  isError: boolean;
  text: string;
}

/** One tools/call through the real SDK client, flattened to what an agent reads. */
export async function callBuiltin(
  session: McpSession,
  name: string,
  args: Record<string, unknown>,
): Promise<CallOutcome> {
  const result = await session.client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
  const content = result.content as Array<{ type: string; text: string }>;
  return { isError: result.isError === true, text: content.map((c) => c.text).join('\n') };
}

/**
 * Everything under `dir` as path → type, size, mtime and content hash: compared before and
 * after an attack, it proves nothing there was created, changed or removed.
 */
export function snapshotTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (path: string): void => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) out[path] = `link:${readlinkSync(path)}`;
    else if (stat.isDirectory()) {
      out[path] = `dir:${stat.mtimeMs}`;
      for (const name of readdirSync(path)) visit(join(path, name));
    } else if (stat.isFile()) {
      out[path] = `file:${stat.size}:${stat.mtimeMs}:${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
    } else out[path] = `special:${stat.mode}`;
  };
  visit(dir);
  return out;
}

/** Running, not a zombie: an orphan killed in a container may linger unreaped under a PID 1 that does not wait. */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
