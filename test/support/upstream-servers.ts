import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './free-port';

/** Third-party MCP servers pinned as devDependencies, started with this Node. */
const MODULES = join(__dirname, '../../node_modules/@modelcontextprotocol');
export const SERVER_EVERYTHING = join(MODULES, 'server-everything/dist/index.js');
export const SERVER_MEMORY = join(MODULES, 'server-memory/dist/index.js');
export const SERVER_SEQUENTIAL_THINKING = join(MODULES, 'server-sequential-thinking/dist/index.js');
/** Ours, on the SDK: its tools change on request (add_tool, remove_tool); each spawn is logged to $SPAWN_LOG. */
export const CHANGING_TOOLS_SERVER = join(__dirname, '../fixtures/upstreams/changing-tools.server.cjs');
/** Ours, on the SDK: one tool, `lookup`, whose description is the server's first argument. */
export const RUG_PULL_SERVER = join(__dirname, '../fixtures/upstreams/rug-pull.server.cjs');

/** A port the OS says is free on 127.0.0.1 (the servers here take PORT, not a listening socket). */

/** server-everything over `streamableHttp` or legacy `sse`, ready when it says it listens. */
export async function startEverythingHttp(
  transport: 'streamableHttp' | 'sse',
): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER_EVERYTHING, transport], {
    env: { PATH: process.env.PATH, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`server-everything ${transport} did not start: ${err}`)), 60_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      if (/running on port|listening on port/i.test(err)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', () => reject(new Error(`server-everything ${transport} exited: ${err}`)));
  });
  const path = transport === 'sse' ? '/sse' : '/mcp';
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await gone;
  };
  return { url: `http://127.0.0.1:${port}${path}`, child, stop };
}

/** Pids of the processes whose parent is `ppid` and whose command line contains `needle` (Linux /proc). */
export function childrenOf(ppid: number, needle: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === ppid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(needle)) out.push(Number(entry));
    } catch {
      // gone while we looked
    }
  }
  return out;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}
