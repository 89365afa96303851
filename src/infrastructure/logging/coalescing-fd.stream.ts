import { writeSync } from 'node:fs';
import { symbols } from 'pino';

/** Lines arriving within this long of a write are gathered into the next one. */
export const COALESCE_WINDOW_MS = 20;
/** A batch this large is written at once instead of waiting for the window to close. */
const HIGH_WATER_BYTES = 16 * 1024;
/** Above this much unwritten output the stream waits for the reader instead of growing. */
const MAX_PENDING_BYTES = 1024 * 1024;
/** What `process.on('exit')` may spend draining to a reader that has stopped reading. */
const EXIT_DRAIN_MS = 2000;
const WARN_LEVEL = 40;

const open = new Set<CoalescingFdStream>();
let sleepCell: Int32Array | undefined;
/** A cell nobody notifies: `Atomics.wait` on it is a 1 ms sleep that blocks, made once (not at import). */
const sleeper = (): Int32Array => (sleepCell ??= new Int32Array(new SharedArrayBuffer(4)));
let exitHooked = false;

/**
 * Drains `stream` when the process exits (normally, by `process.exit`, or after a handled
 * signal) until it is ended. One listener for all streams, added on first use, never at import.
 */
export function drainOnExit(stream: CoalescingFdStream): CoalescingFdStream {
  if (!exitHooked) {
    exitHooked = true;
    process.on('exit', () => open.forEach((s) => s.flushSync()));
  }
  open.add(stream);
  return stream;
}

/**
 * pino's destination for fd 2. A synchronous `write` per line costs a syscall and a wake-up
 * of the reader for every tool call, and when the pipe is full pino's own sync destination
 * sleeps 100 ms with the event loop blocked. This one writes the first line after a quiet
 * spell at once (so the order against other stderr output is kept where it is visible),
 * gathers the lines of a busy spell into one write per {@link COALESCE_WINDOW_MS}, keeps
 * output the pipe refused (EAGAIN) for the next window instead of sleeping, writes warnings
 * and errors immediately with everything before them, and drains on process exit. Output is
 * never dropped while a reader exists; memory is bounded by waiting once 1 MiB is unwritten.
 */
export class CoalescingFdStream {
  /** pino fills `lastLevel` before each `write` when a stream asks for it. */
  readonly [symbols.needsMetadataGsym] = true as const;
  lastLevel = 0;
  private lines: string[] = [];
  private lineBytes = 0;
  private refused?: Buffer;
  private window?: NodeJS.Timeout;
  private broken = false;

  /**
   * @param beforeFlush puts in what a writer holds back outside the stream (unserialized span
   *   records), so a flush on exit or on `end` writes that too.
   */
  constructor(
    private readonly fd: number,
    private readonly beforeFlush?: () => void,
  ) {}

  /** Bytes accepted but not yet handed to the kernel. */
  get pending(): number {
    return this.lineBytes + (this.refused?.length ?? 0);
  }

  write(line: string): boolean {
    if (this.broken) return true;
    this.lines.push(line);
    this.lineBytes += line.length;
    if (!this.window) {
      this.attempt();
      this.openWindow();
    } else if (this.lastLevel >= WARN_LEVEL || (this.lineBytes >= HIGH_WATER_BYTES && !this.refused)) {
      // While the pipe is refusing, retrying per line would copy the backlog each time.
      this.attempt();
    }
    if (this.pending > MAX_PENDING_BYTES) this.drain(Number.POSITIVE_INFINITY);
    return true;
  }

  /** Writes everything, waiting for a slow reader up to `budgetMs`; pino's `flushSync` and the exit hook. */
  flushSync(budgetMs = EXIT_DRAIN_MS): void {
    this.beforeFlush?.();
    this.drain(budgetMs);
  }

  /** pino's `logger.flush(cb)`. */
  flush(done: (err?: Error) => void = () => undefined): void {
    this.drain(EXIT_DRAIN_MS);
    done();
  }

  /** Stops the window timer; what is pending is written first. */
  end(): void {
    open.delete(this);
    this.beforeFlush?.();
    this.drain(EXIT_DRAIN_MS);
    clearTimeout(this.window);
    this.window = undefined;
  }

  private openWindow(): void {
    this.window = setTimeout(() => this.onWindowClosed(), COALESCE_WINDOW_MS);
    this.window.unref();
  }

  private onWindowClosed(): void {
    this.window = undefined;
    if (this.pending === 0) return;
    this.attempt();
    // Still busy (or the reader is behind): keep gathering instead of writing per line.
    this.openWindow();
  }

  /** One non-blocking attempt; what the pipe does not take now stays for the next one. */
  private attempt(): void {
    let data = this.take();
    if (!data) return;
    try {
      while (data.length > 0) {
        const written = writeSync(this.fd, data);
        data = data.subarray(written);
      }
      this.refused = undefined;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EAGAIN') this.refused = data;
      else this.fail();
    }
  }

  private drain(budgetMs: number): void {
    const deadline = Date.now() + budgetMs;
    for (;;) {
      this.attempt();
      if (this.pending === 0 || this.broken || Date.now() >= deadline) return;
      Atomics.wait(sleeper(), 0, 0, 1);
    }
  }

  private take(): Buffer | undefined {
    if (this.lines.length === 0) return this.refused;
    const fresh = Buffer.from(this.lines.length === 1 ? this.lines[0] : this.lines.join(''));
    this.lines = [];
    this.lineBytes = 0;
    return this.refused ? Buffer.concat([this.refused, fresh]) : fresh;
  }

  /** The reader is gone (EPIPE) or the fd is unusable: there is nowhere left to write. */
  private fail(): void {
    this.broken = true;
    this.lines = [];
    this.lineBytes = 0;
    this.refused = undefined;
  }
}
