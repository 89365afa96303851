import { spawn } from 'node:child_process';
import { accessSync, chmodSync, constants } from 'node:fs';
import { isAbsolute } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { CommandExecutor, CommandRequest, CommandResult } from '../../domain/workflow/ports/command-executor.port';
import { CAPTURE_OUTPUT_BYTES } from '../../domain/workflow/output-truncation';
import { PrivateTempDir } from '../core/private-temp-dir';
import { signalGroup } from '../core/process-tree';
import { HeadTailCapture } from './head-tail.capture';
import { stopProcessGroup } from './process-group';

/**
 * Runs command steps with `$SHELL -c` (when $SHELL is an absolute, executable path; else
 * /bin/sh) in a new process group with stdin closed, as AWF does (ADR 012). Timeout and
 * abort stop the whole group: SIGTERM, then SIGKILL after 5 s.
 */
export class ShellCommandExecutor implements CommandExecutor {
  constructor(
    private readonly shell: string = pickShell(process.env.SHELL),
    private readonly captureBytes = CAPTURE_OUTPUT_BYTES,
  ) {}

  run(request: CommandRequest): Promise<CommandResult> {
    if (!request.script) return this.spawn(this.shell, ['-c', request.command], request);
    // A shebang script runs as its own file: private (0700 dir, 0700 file), removed once the group is gone.
    const dir = new PrivateTempDir('awf-script-');
    try {
      const file = dir.write('script', request.command);
      chmodSync(file, 0o700);
      return this.spawn(file, [], request).finally(() => dir.remove());
    } catch (err) {
      dir.remove();
      throw err;
    }
  }

  private spawn(program: string, args: string[], request: CommandRequest): Promise<CommandResult> {
    return new Promise((resolve) => {
      const child = spawn(program, args, {
        cwd: request.cwd,
        env: request.env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const stdout = new HeadTailCapture(this.captureBytes);
      const stderr = new HeadTailCapture(this.captureBytes);
      let timedOut = false;
      let cancelled = false;
      let stopping: Promise<void> | undefined;
      // Live chunks go through a decoder each, so a character split across two reads stays whole.
      const live = request.onOutput;
      const decoders = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };
      child.stdout.on('data', (c: Buffer) => {
        stdout.push(c);
        live?.('stdout', decoders.stdout.write(c));
      });
      child.stderr.on('data', (c: Buffer) => {
        stderr.push(c);
        live?.('stderr', decoders.stderr.write(c));
      });
      const stop = (): void => void (stopping ??= stopProcessGroup(child));
      const onAbort = (): void => {
        cancelled = true;
        stop();
      };
      const timer =
        request.timeoutMs > 0 ? setTimeout(() => ((timedOut = true), stop()), request.timeoutMs) : undefined;
      if (request.signal.aborted) onAbort();
      else request.signal.addEventListener('abort', onAbort, { once: true });
      const settle = (exitCode: number, extraErr = ''): void => {
        if (timer) clearTimeout(timer);
        request.signal.removeEventListener('abort', onAbort);
        const stopped = timedOut || cancelled;
        const truncated = { stdout: stdout.dropped, stderr: stderr.dropped };
        resolve({
          stdout: stdout.text(),
          stderr: stderr.text() + extraErr,
          ...(truncated.stdout || truncated.stderr ? { truncated } : {}),
          exitCode: stopped ? -1 : exitCode,
          timedOut: timedOut && !cancelled,
          cancelled,
        });
      };
      // Whatever the shell left in its group goes with it, or its pipes would hold `close` open.
      child.once('exit', () => child.pid && signalGroup(child.pid, 'SIGKILL'));
      child.once('error', (err) => settle(127, `${err.message}\n`));
      child.once('close', (code, signal) => settle(code ?? (signal ? 128 + signalNumber(signal) : 1)));
    });
  }
}

function pickShell(shell: string | undefined): string {
  if (shell && isAbsolute(shell)) {
    try {
      accessSync(shell, constants.X_OK);
      return shell;
    } catch {
      // fall through
    }
  }
  return '/bin/sh';
}

function signalNumber(signal: NodeJS.Signals): number {
  return ({ SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 } as Record<string, number>)[signal] ?? 0;
}
