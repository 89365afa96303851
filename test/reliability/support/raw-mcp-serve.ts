import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { selfCommand } from '../../../src/infrastructure/core/self-command';
import { idKey, type JsonRpcResponse } from './frame-generator';
import type { SeededRandom } from './seeded-random';

/**
 * `awf mcp-serve` driven byte by byte: the fuzz writes raw frames to its stdin and reads
 * every line it prints, because the SDK client would refuse to send most of what we test.
 */
export class RawMcpServe {
  readonly responses: JsonRpcResponse[] = [];
  /** `idKey` of every id answered so far. */
  readonly answered = new Set<string>();
  /** stdout lines that are not JSON-RPC: each one breaks the client on the other end. */
  readonly foreignLines: string[] = [];
  private pending: Buffer[] = [];
  private stderrText = '';
  private waiters: Array<() => void> = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (chunk: Buffer) => this.onData(chunk));
    child.stderr.on('data', (chunk: Buffer) => (this.stderrText += chunk.toString()));
    // A server that dies mid-write must fail the test on its own terms, not with an EPIPE here.
    child.stdin.on('error', () => undefined);
    this.exited = once(child, 'exit').then(([code, signal]) => ({
      code: code as number | null,
      signal: signal as NodeJS.Signals | null,
    }));
  }

  static start(dir: string, config: Record<string, unknown>, env: Record<string, string> = {}): RawMcpServe {
    const file = join(dir, `proxy-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify({ version: 1, intercept_builtins: false, plugin_tools: [], ...config }), {
      mode: 0o600,
    });
    // Started as `awf run` starts it for an agent.
    const { command, args } = selfCommand(['mcp-serve', `--config=${file}`]);
    const child = spawn(command, args, {
      cwd: dir,
      env: { ...process.env, AWF_LOG_LEVEL: 'warn', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return new RawMcpServe(child);
  }

  get pid(): number {
    return this.child.pid!;
  }

  get stderr(): string {
    return this.stderrText;
  }

  /** Writes `bytes` in chunks of random sizes, so frames straddle reads in every possible way. */
  async write(bytes: Buffer, rng?: SeededRandom, maxChunk = 64 * 1024): Promise<void> {
    let offset = 0;
    while (offset < bytes.length) {
      const size = rng ? (rng.chance(0.05) ? rng.int(1, 16) : rng.int(1, maxChunk)) : bytes.length;
      const chunk = bytes.subarray(offset, offset + size);
      offset += chunk.length;
      if (this.child.stdin.destroyed || this.child.exitCode !== null)
        throw new Error(
          `mcp-serve stopped reading its stdin (exit ${this.child.exitCode ?? 'pending'}); stderr:\n${this.stderrText.slice(-2000)}`,
        );
      if (!this.child.stdin.write(chunk))
        await Promise.race([once(this.child.stdin, 'drain').catch(() => undefined), this.exited]);
    }
  }

  /** Resolves once `done()` holds (checked after every response), or rejects after `timeoutMs`. */
  async waitFor(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (this.child.exitCode !== null || this.child.signalCode !== null)
        throw new Error(
          `mcp-serve exited (${this.child.exitCode ?? this.child.signalCode}) while waiting for ${what}; stderr:\n${this.stderrText.slice(-2000)}`,
        );
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `timed out after ${timeoutMs} ms waiting for ${what} (${this.responses.length} responses so far)`,
        );
      await withTimeout(
        Promise.race([new Promise<void>((resolve) => this.waiters.push(resolve)), this.exited]),
        Math.min(left, 500),
        undefined,
      );
    }
  }

  async end(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.stdin.end();
    return this.exited;
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }

  private onData(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      this.pending.push(chunk.subarray(start, nl));
      this.onLine(Buffer.concat(this.pending).toString('utf8'));
      this.pending = [];
      start = nl + 1;
    }
    if (start < chunk.length) this.pending.push(chunk.subarray(start));
  }

  private onLine(line: string): void {
    try {
      const message = JSON.parse(line) as JsonRpcResponse;
      if (message?.jsonrpc !== '2.0' || (!('result' in message) && !('error' in message)))
        throw new Error('not a response');
      this.responses.push(message);
      this.answered.add(idKey(message.id));
    } catch {
      this.foreignLines.push(line.length > 300 ? `${line.slice(0, 300)}…` : line);
    }
    for (const wake of this.waiters.splice(0)) wake();
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** `promise`, or `fallback` once `ms` have passed; the timer never outlives the race. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<T>((resolve) => (timer = setTimeout(() => resolve(fallback), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
