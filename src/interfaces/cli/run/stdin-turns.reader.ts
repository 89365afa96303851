import { spawnSync } from 'node:child_process';
import { createInterface, type Interface } from 'node:readline';

/**
 * The user's turns of a `mode: conversation` step: one line of stdin each, with a `step> `
 * prompt on stderr when stdin is a terminal. An empty line or the end of input ends the
 * conversation. stdin is opened only when a conversation (or a prompt: a missing input,
 * `--interactive`) asks, and released by `close`.
 */
export class StdinTurns {
  private reader?: Interface;
  private readonly lines: string[] = [];
  private waiting?: (line: string | undefined) => void;
  private ended = false;

  /** `signal` (Ctrl-C): a prompt that is waiting gets no answer, so the run can stop. */
  constructor(signal?: AbortSignal) {
    signal?.addEventListener('abort', () => this.deliver(undefined), { once: true });
  }

  readonly next = (step: string): Promise<string | undefined> => this.ask(process.stdin.isTTY ? `${step}> ` : '');

  /**
   * One line of stdin after `prompt` (on stderr). `hidden`: on a terminal, what is typed is
   * not echoed (a secret input); the terminal's line editing and Ctrl-C still work.
   */
  ask(prompt: string, options: { hidden?: boolean } = {}): Promise<string | undefined> {
    this.open();
    // Echo goes off before the prompt shows, so nothing typed after it is echoed.
    const hide = options.hidden === true && process.stdin.isTTY === true && stty('-echo');
    if (prompt) process.stderr.write(prompt);
    const line = this.take();
    if (!hide) return line;
    return line.finally(() => {
      stty('echo');
      process.stderr.write('\n');
    });
  }

  private take(): Promise<string | undefined> {
    const line = this.lines.shift();
    if (line !== undefined || this.ended) return Promise.resolve(line);
    return new Promise((resolve) => (this.waiting = resolve));
  }

  close(): void {
    this.reader?.close();
  }

  private open(): void {
    if (this.reader) return;
    this.reader = createInterface({ input: process.stdin, terminal: false });
    this.reader.on('line', (line) => this.deliver(line));
    this.reader.on('close', () => {
      this.ended = true;
      this.deliver(undefined);
    });
  }

  private deliver(line: string | undefined): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) waiting(line);
    else if (line !== undefined) this.lines.push(line);
  }
}

/** Switches the terminal's echo with stty(1) on our own stdin; false when that is not possible. */
function stty(mode: string): boolean {
  return spawnSync('stty', [mode], { stdio: ['inherit', 'ignore', 'ignore'] }).status === 0;
}
