import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import { killOnHostExit } from '../core/child-orphan.guard';

const STDERR_TAIL_LINES = 20;

/**
 * What awf keeps of a stdio server's process beside the SDK transport that talks to it: its
 * last stderr lines (for a start failure or a crash, ADR 180), how it ended, and the exit
 * hook of ADR 081. The stderr stream is given before the spawn so no early line is lost.
 */
export class UpstreamProcess {
  private child?: ChildProcess;
  private readonly tail: string[] = [];
  private exit?: { code: number | null; signal: NodeJS.Signals | null };

  constructor(stderr: Readable | null, logger: AppLogger) {
    if (!stderr) return;
    createInterface({ input: stderr }).on('line', (line) => {
      if (!line.trim()) return;
      this.tail.push(line);
      if (this.tail.length > STDERR_TAIL_LINES) this.tail.shift();
      logger.debug({ stream: 'stderr' }, line);
    });
  }

  /** The spawned process: from now on its end is recorded, and it does not outlive awf. */
  started(child: ChildProcess | undefined): void {
    if (!child) return;
    this.child = child;
    killOnHostExit(child);
    child.once('exit', (code, signal) => (this.exit = { code, signal }));
  }

  get alive(): boolean {
    return this.child !== undefined && this.exit === undefined;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Resolves when the process has ended, or after `ms`. */
  async exited(ms: number): Promise<void> {
    const child = this.child;
    if (!child || !this.alive) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      new Promise((resolve) => child.once('exit', resolve)),
      new Promise((resolve) => (timer = setTimeout(resolve, ms))),
    ]).finally(() => clearTimeout(timer));
  }

  stderrTail(): string[] {
    return [...this.tail];
  }

  describeExit(): string {
    if (!this.exit) return this.child ? 'is running' : 'did not start';
    return this.exit.signal ? `was killed by ${this.exit.signal}` : `exited with code ${this.exit.code}`;
  }
}
