import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Reads what the kernel says about a process; all sizes in KiB, as /proc reports them. */
export function memoryOf(pid: number): { rssKiB: number; hwmKiB: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssKiB: field('VmRSS'), hwmKiB: field('VmHWM') };
  } catch {
    return undefined;
  }
}

/** The open file descriptors of a process, by what they point at. */
export function openFds(pid: number): string[] {
  const dir = `/proc/${pid}/fd`;
  return readdirSync(dir).map((fd) => {
    try {
      return readlinkSync(`${dir}/${fd}`);
    } catch {
      return 'gone';
    }
  });
}

export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

/** Every live process whose ancestry reaches `root` (the root excluded), from /proc. */
export function descendantsOf(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // raced with an exit
    }
  }
  const out: number[] = [];
  const walk = (pid: number): void => {
    for (const [child, parent] of parents) {
      if (parent === pid && isRunning(child)) {
        out.push(child);
        walk(child);
      }
    }
  };
  walk(root);
  return out;
}

/** Live processes whose command line contains `needle` (e.g. a scratch directory only one test uses). */
export function processesMentioning(needle: string): Array<{ pid: number; cmdline: string }> {
  const found: Array<{ pid: number; cmdline: string }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmdline.includes(needle) && isRunning(Number(entry))) found.push({ pid: Number(entry), cmdline });
    } catch {
      // raced with an exit
    }
  }
  return found;
}

/** Samples a process's RSS until stopped; the peak is what bounded memory is judged on. */
export class RssSampler {
  private timer?: NodeJS.Timeout;
  readonly samples: number[] = [];

  constructor(
    private readonly pid: number,
    intervalMs = 50,
  ) {
    this.timer = setInterval(() => {
      const m = memoryOf(this.pid);
      if (m) this.samples.push(m.rssKiB);
    }, intervalMs);
    this.timer.unref();
  }

  stop(): { peakKiB: number; lastKiB: number } {
    clearInterval(this.timer);
    return { peakKiB: Math.max(0, ...this.samples), lastKiB: this.samples.at(-1) ?? 0 };
  }
}
