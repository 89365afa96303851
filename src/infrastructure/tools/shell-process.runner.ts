import { BoundedOutput } from './bounded-output.buffer';

export interface ShellRequest {
  shell: string;
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal: AbortSignal;
  /** Characters each stream keeps at both its head and its tail. */
  keep: number;
}

export interface ShellOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: BoundedOutput;
  stderr: BoundedOutput;
  timedOut: boolean;
  aborted: boolean;
  spawnError?: Error;
}

/** After the shell exits, how long a leftover that escaped the group may hold the pipes open. */
const PIPE_GRACE_MS = 1000;

/**
 * Runs `<shell> -c <command>` as the leader of a new process group with stdin closed. The
 * whole group is killed on timeout, on abort, and as soon as the shell itself exits, so a
 * background `sleep 600 &` never outlives the call nor keeps its pipes (and us) waiting.
 */
export function runShell(request: ShellRequest): Promise<ShellOutcome> {
  const stdout = new BoundedOutput(request.keep);
  const stderr = new BoundedOutput(request.keep);
  const outcome: ShellOutcome = { code: null, signal: null, stdout, stderr, timedOut: false, aborted: false };
  // Required on first use: mcp-serve's startup should not pay for what a step may never call.
  const { spawn } = require('node:child_process') as typeof import('node:child_process');
  return new Promise((resolve) => {
    const child = spawn(request.shell, ['-c', request.command], {
      cwd: request.cwd,
      env: request.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is already gone
      }
    };
    const timer = setTimeout(() => {
      outcome.timedOut = true;
      killGroup();
    }, request.timeoutMs);
    const onAbort = (): void => {
      outcome.aborted = true;
      killGroup();
    };
    request.signal.addEventListener('abort', onAbort, { once: true });
    let grace: NodeJS.Timeout | undefined;
    const finish = (): void => {
      clearTimeout(timer);
      clearTimeout(grace);
      request.signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => stdout.push(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
    child.once('error', (err) => {
      outcome.spawnError = err;
      finish();
    });
    child.once('exit', (code, signal) => {
      outcome.code = code;
      outcome.signal = signal;
      killGroup();
      grace = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, PIPE_GRACE_MS);
    });
    child.once('close', finish);
    if (request.signal.aborted) onAbort();
  });
}
