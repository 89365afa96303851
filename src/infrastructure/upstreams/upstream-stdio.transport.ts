import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import { dieWithParent, killOnHostExit } from '../core/child-orphan.guard';
import type { UpstreamSdk } from './upstream-sdk';
import { UpstreamLines } from './upstream-lines';

export interface StdioLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

const STDERR_TAIL_LINES = 20;
const STDIN_CLOSE_GRACE_MS = 1_000;
const TERM_GRACE_MS = 2_000;

/**
 * The SDK's `Transport` over a child process we spawn ourselves: the SDK's serializeMessage out,
 * its line framing in (UpstreamLines, without a zod parse the SDK repeats anyway; ADR 182).
 * Its StdioClientTransport would do, but hides the child:
 * we need it to launch under the parent-death signal and the exit hook (ADR 081), to keep
 * its last stderr lines, and to say how it ended (ADR 180).
 */
export class UpstreamStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child?: ChildProcess;
  private readonly tail: string[] = [];
  private exit?: { code: number | null; signal: NodeJS.Signals | null };
  private readonly lines = new UpstreamLines(
    (message) => this.onmessage?.(message),
    (error) => this.onerror?.(error), // a line that is not JSON-RPC: dropped, the rest goes on
  );

  constructor(
    private readonly launch: StdioLaunch,
    private readonly sdk: UpstreamSdk,
    private readonly logger: AppLogger,
  ) {}

  start(): Promise<void> {
    const { command, args } = dieWithParent(this.launch.command, this.launch.args, this.launch.env);
    const child = spawn(command, args, {
      cwd: this.launch.cwd,
      env: this.launch.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
    });
    this.child = child;
    killOnHostExit(child);
    createInterface({ input: child.stderr! }).on('line', (line) => {
      if (!line.trim()) return;
      this.tail.push(line);
      if (this.tail.length > STDERR_TAIL_LINES) this.tail.shift();
      this.logger.debug({ stream: 'stderr' }, line);
    });
    child.stdout!.on('data', (chunk: Buffer) => this.lines.push(chunk));
    child.stdin!.on('error', (err) => this.onerror?.(err));
    child.once('exit', (code, signal) => (this.exit = { code, signal }));
    child.once('close', () => this.onclose?.());
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (err) => {
        this.exit ??= { code: null, signal: null };
        reject(err);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || !stdin.writable) return Promise.reject(new Error('the server process is not running'));
    return new Promise((resolve) =>
      stdin.write(this.sdk.serializeMessage(message)) ? resolve() : stdin.once('drain', resolve),
    );
  }

  /** stdin closed first (what MCP asks of a client), then SIGTERM, then SIGKILL. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || !this.alive) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.stdin?.end();
    if (await within(gone, STDIN_CLOSE_GRACE_MS)) return;
    child.kill('SIGTERM');
    if (await within(gone, TERM_GRACE_MS)) return;
    child.kill('SIGKILL');
    await gone;
  }

  get alive(): boolean {
    return this.child !== undefined && this.exit === undefined;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async exited(ms: number): Promise<void> {
    const child = this.child;
    if (!child || !this.alive) return;
    await within(new Promise((resolve) => child.once('exit', resolve)), ms);
  }

  stderrTail(): string[] {
    return [...this.tail];
  }

  describeExit(): string {
    if (!this.exit) return 'is running';
    return this.exit.signal ? `was killed by ${this.exit.signal}` : `exited with code ${this.exit.code}`;
  }
}

function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.then(() => true),
    new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms))),
  ]).finally(() => clearTimeout(timer));
}
