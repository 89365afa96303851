import { readdirSync, readFileSync } from 'node:fs';
import { isAlive } from './owner-watch';

/**
 * The processes under `root` now (its children, theirs, …), read from /proc; none where there
 * is no /proc. Taken before a tree is signalled: once a parent is gone its children belong to
 * init, and a descendant that started its own session (codex's sandboxed shell does) is out of
 * reach of a signal to the group.
 */
export function descendantsOf(root: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // The name in parentheses may hold spaces and parentheses: the fields after the last ')' are fixed.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(entry));
    children.set(ppid, list);
  }
  const found: number[] = [];
  for (let queue = [root]; queue.length > 0;) {
    const next = children.get(queue.shift()!) ?? [];
    found.push(...next);
    queue.push(...next);
  }
  return found;
}

/** True while `pid` runs (a zombie counts as gone: it holds nothing but its exit status). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return isAlive(pid); // no /proc here
  }
}

/**
 * When `pid` started, in clock ticks since boot (field 22 of /proc/<pid>/stat): with the pid it
 * names one process, since a pid is reused once its process is gone. Undefined without /proc.
 */
export function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/**
 * SIGTERM to the group and to every process under `pid` that left it, SIGKILL after `grace` to
 * whatever is still there. Resolves when all of it is gone. The tree is taken first, while it
 * still hangs under `pid` ({@link descendantsOf}).
 */
export async function reapGroup(pid: number | undefined, grace: number): Promise<void> {
  if (!pid) return;
  const strays = descendantsOf(pid);
  const signalAll = (signal: NodeJS.Signals): void => {
    signalGroup(pid, signal);
    for (const stray of strays) signalOne(stray, signal);
  };
  const left = (): boolean => signalGroup(pid, 0) || strays.some(alive);
  if (!left()) return;
  signalAll('SIGTERM');
  const deadline = Date.now() + grace;
  while (left()) {
    if (Date.now() >= deadline) {
      signalAll('SIGKILL');
      await sleep(50);
      if (Date.now() >= deadline + 2000) return;
      continue;
    }
    await sleep(50);
  }
}

function signalOne(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // gone already
  }
}

/** Sends `signal` to the process group `pid` leads; 0 only asks whether any of it is left. False: nothing was there. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
