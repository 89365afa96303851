import { createInterface, type Interface } from 'node:readline';

/**
 * The user's turns of a `mode: conversation` step: one line of stdin each, with a `step> `
 * prompt on stderr when stdin is a terminal. An empty line or the end of input ends the
 * conversation. stdin is opened only when a conversation asks, and released by `close`.
 */
export class StdinTurns {
  private reader?: Interface;
  private readonly lines: string[] = [];
  private waiting?: (line: string | undefined) => void;
  private ended = false;

  readonly next = (step: string): Promise<string | undefined> => {
    this.open();
    if (process.stdin.isTTY) process.stderr.write(`${step}> `);
    const line = this.lines.shift();
    if (line !== undefined || this.ended) return Promise.resolve(line);
    return new Promise((resolve) => (this.waiting = resolve));
  };

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
