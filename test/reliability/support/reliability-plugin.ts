import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const RELIABILITY_PLUGIN = resolve(__dirname, '../../fixtures/plugins/reliability-plugin.js');

/** Installs test/fixtures/plugins/reliability-plugin.js as plugin `name` under `pluginsDir`. */
export function installReliabilityPlugin(pluginsDir: string, name = 'rel'): string {
  const dir = join(pluginsDir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'plugin.yaml'),
    `name: ${name}\nversion: 0.0.1\ncapabilities: [operations]\ncommand: [node, ${JSON.stringify(RELIABILITY_PLUGIN)}]\n`,
  );
  return dir;
}

export interface ProcEntry {
  pid: number;
  ppid: number;
  /** The one-letter state from /proc/<pid>/stat: R, S, D, Z (zombie)... */
  state: string;
  cmdline: string;
}

/** Every process in /proc, zombies included. */
export function processTable(): ProcEntry[] {
  const out: ProcEntry[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      out.push({ pid: Number(entry), ppid: Number(ppid), state, cmdline });
    } catch {
      // raced with an exit
    }
  }
  return out;
}

/** The children of `pid` (zombies too: a zombie is a child nobody reaped). */
export function childrenOf(pid: number): ProcEntry[] {
  return processTable().filter((p) => p.ppid === pid);
}

/** `pid` and everything below it, as the kernel sees it now. */
export function treeOf(pid: number): ProcEntry[] {
  const table = processTable();
  const out = table.filter((p) => p.pid === pid);
  for (let i = 0; i < out.length; i++) out.push(...table.filter((p) => p.ppid === out[i].pid));
  return out;
}

/** Those of `pids` that still exist in /proc, in any state (a zombie counts: it was not reaped). */
export function stillPresent(pids: number[]): ProcEntry[] {
  const table = new Map(processTable().map((p) => [p.pid, p]));
  return pids.flatMap((pid) => (table.has(pid) ? [table.get(pid)!] : []));
}

export async function waitUntil<T>(probe: () => T | undefined | false, what: string, timeoutMs = 60_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}
