import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { AwfError } from '../../domain/errors/awf-error';
import { type ErrorCode, ErrorCodes } from '../../domain/errors/error-codes';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import { type HandshakeEndpoint, MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE, parseHandshake } from '../../sdk/wire/handshake';
import type { PluginLaunch } from './plugin-manifest';
import { dieWithParent, killOnHostExit } from '../core/child-orphan.guard';
import { logPluginLine, meaningfulStderrLine } from './plugin-stderr';

/**
 * From spawn to the handshake line. AWF allows 5 s, for Go plugins that answer in
 * milliseconds; a Node plugin needs about 0.5 s idle and took more than 5 s on a loaded
 * two-core machine. The deadline only matters for a plugin that is alive and silent (one
 * that exits is reported at once), so a longer one costs nothing when things go wrong
 * (docs/adr/220-plugins-install-and-handshake-deadline.md).
 */
export const HANDSHAKE_TIMEOUT_MS = 20_000;

/** 20 s, unless AWF_PLUGIN_HANDSHAKE_TIMEOUT_MS says otherwise. */
export function handshakeTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.AWF_PLUGIN_HANDSHAKE_TIMEOUT_MS);
  return Number.isFinite(value) && value > 0 ? value : HANDSHAKE_TIMEOUT_MS;
}
export const KILL_GRACE_MS = 2_000;
const STDERR_TAIL_LINES = 20;

export interface PluginExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * One plugin child process: spawned with go-plugin's environment, its first stdout line
 * read as the handshake, its stderr logged line by line under the plugin's name (the last
 * lines kept for error messages). Owns a private socket directory and removes it on exit.
 */
export class PluginProcess {
  private readonly tail: string[] = [];
  /** The first lines too: a crash's reason comes early, before a logger's noise fills the tail. */
  private readonly head: string[] = [];
  private exitInfo?: PluginExit;
  private stopping = false;
  readonly exited: Promise<PluginExit>;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
    private readonly socketDir: string,
    logger: AppLogger,
  ) {
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        rmSync(socketDir, { recursive: true, force: true });
        if (!this.stopping) logger.warn({ code, signal, stderr: this.stderrTail() }, 'plugin exited unexpectedly');
        resolve(this.exitInfo);
      });
    });
    createInterface({ input: child.stderr! }).on('line', (line) => {
      if (!line.trim()) return;
      if (this.head.length < STDERR_TAIL_LINES) this.head.push(line);
      this.tail.push(line);
      if (this.tail.length > STDERR_TAIL_LINES) this.tail.shift();
      logPluginLine(logger, line);
    });
  }

  static async start(
    name: string,
    launch: PluginLaunch,
    options: { logger: AppLogger; clientCertPem?: string; handshakeTimeoutMs?: number },
  ): Promise<{ process: PluginProcess; endpoint: HandshakeEndpoint }> {
    const socketDir = mkdtempSync(join(tmpdir(), 'awf-plugin-'));
    const { command, args } = dieWithParent(launch.command, launch.args);
    const child = spawn(command, args, {
      cwd: launch.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
        PLUGIN_PROTOCOL_VERSIONS: '1',
        PLUGIN_MIN_PORT: '0',
        PLUGIN_MAX_PORT: '0',
        PLUGIN_UNIX_SOCKET_DIR: socketDir,
        ...(options.clientCertPem ? { PLUGIN_CLIENT_CERT: options.clientCertPem } : {}),
      },
    });
    killOnHostExit(child);
    const proc = new PluginProcess(name, child, socketDir, options.logger.child({ plugin: name }));
    try {
      const endpoint = await proc.handshake(options.handshakeTimeoutMs ?? handshakeTimeoutMs(), launch);
      return { process: proc, endpoint };
    } catch (err) {
      await proc.stop();
      throw err;
    }
  }

  get alive(): boolean {
    return this.exitInfo === undefined;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  stderrTail(lines = 5): string[] {
    return this.tail.slice(-lines);
  }

  describeExit(): string {
    const info = this.exitInfo;
    if (!info) return 'is running';
    return info.signal ? `was killed by ${info.signal}` : `exited with code ${info.code}`;
  }

  /**
   * `politely` first (the Shutdown RPCs), then SIGTERM, then SIGKILL after the grace period;
   * resolves once the process is gone.
   */
  async stop(politely?: () => Promise<void>, graceMs = KILL_GRACE_MS): Promise<PluginExit> {
    this.stopping = true;
    if (this.alive && politely) {
      await politely().catch(() => undefined);
      await Promise.race([this.exited, new Promise((r) => setTimeout(r, 200))]);
    }
    if (this.alive) {
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
      await this.exited;
      clearTimeout(timer);
    }
    return this.exited;
  }

  private handshake(timeoutMs: number, launch: PluginLaunch): Promise<HandshakeEndpoint> {
    const lines = createInterface({ input: this.child.stdout! });
    return new Promise<HandshakeEndpoint>((resolve, reject) => {
      const fail = (code: ErrorCode, message: string, hint?: string) => {
        cleanup();
        reject(
          new AwfError(
            code,
            `${message}${this.reasonNote()}`,
            { plugin: this.name, command: launch.command, pid: this.child.pid },
            hint,
          ),
        );
      };
      const timer = setTimeout(
        () =>
          fail(
            ErrorCodes.PLUGIN_HANDSHAKE_TIMEOUT,
            `plugin ${this.name} did not complete the handshake within ${timeoutMs / 1000} s`,
            'A plugin must print its handshake line (1|1|unix|<socket>|grpc|<cert>) as soon as it listens.',
          ),
        timeoutMs,
      );
      const onLine = (line: string) => {
        if (!line.trim()) return;
        try {
          const endpoint = parseHandshake(line);
          cleanup();
          // Later stdout lines are not protocol; keep draining so the plugin never blocks on a full pipe.
          lines.on('line', () => undefined);
          resolve(endpoint);
        } catch (err) {
          fail(
            ErrorCodes.PLUGIN_HANDSHAKE_FAILED,
            `plugin ${this.name} sent a bad handshake: ${(err as Error).message}`,
            'Is this a go-plugin (gRPC) plugin built for awf/AWF? Its first stdout line must be the handshake.',
          );
        }
      };
      const onExit = () =>
        setImmediate(() =>
          fail(
            ErrorCodes.PLUGIN_HANDSHAKE_FAILED,
            `plugin ${this.name} ${this.describeExit()} before its handshake`,
            'Run the plugin by hand with AWF_PLUGIN=awf-plugin-v1 set to see its error.',
          ),
        );
      const onError = (err: NodeJS.ErrnoException) =>
        fail(
          ErrorCodes.PLUGIN_BINARY_MISSING,
          `cannot start plugin ${this.name} (${launch.command}): ${err.code ?? err.message}`,
          'Check the plugin folder: an executable awf-plugin-<name>, or a command: in plugin.yaml.',
        );
      const cleanup = () => {
        clearTimeout(timer);
        lines.off('line', onLine);
        this.child.off('exit', onExit);
        this.child.off('error', onError);
      };
      lines.on('line', onLine);
      this.child.once('exit', onExit);
      this.child.once('error', onError);
    });
  }

  /** `; its last stderr lines:` and the lines, for the end of an error message; `whenEmpty` if it wrote none. */
  stderrNote(whenEmpty = ''): string {
    const tail = this.stderrTail();
    return tail.length ? `; its last stderr lines:\n${tail.join('\n')}` : whenEmpty;
  }

  /**
   * `: <the line that says why>` for the first line of an error message (what `awf plugin
   * list` shows), then the last stderr lines below it; '' when the plugin wrote nothing.
   */
  reasonNote(): string {
    const reason = meaningfulStderrLine([...this.head, ...this.tail]);
    const tail = this.stderrTail();
    return `${reason ? `: ${reason}` : ''}${tail.length ? `\nits last stderr lines:\n${tail.join('\n')}` : ''}`;
  }
}
