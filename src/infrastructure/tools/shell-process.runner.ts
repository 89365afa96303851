import { BoundedOutput } from './bounded-output.buffer';

export interface ShellRequest {
  /** Run the shell through this command first (`unshare … --`), when one was found to work. */
  wrapper?: readonly string[];
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
/** While output still flows after the grace, look again this often, this many times at most. */
const PIPE_RECHECK_MS = 100;
const PIPE_RECHECKS = 20;

/**
 * The PID namespace a Bash call runs in, where util-linux's `unshare` can make one (root, or a
 * kernel that lets this user): the shell is its PID 1, so when the shell exits — or is killed,
 * `--kill-child` passing the kill on — the kernel kills everything left in it, `setsid` and
 * double-forked daemons included. Probed once per process; undefined where it cannot run, and
 * the process-group kill below is then all there is (docs/tools.md says what holds where).
 */
let namespaceWrapper: readonly string[] | undefined | null = null;
export function pidNamespaceWrapper(env: NodeJS.ProcessEnv = process.env): readonly string[] | undefined {
  if (namespaceWrapper !== null) return namespaceWrapper;
  const { findExecutable } = require('./executable.lookup') as typeof import('./executable.lookup');
  const unshare = findExecutable('unshare', env.PATH ?? '/usr/bin:/bin');
  const wrapper = unshare ? [unshare, '--pid', '--fork', '--kill-child', '--'] : undefined;
  if (wrapper) {
    const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
    const probe = spawnSync(wrapper[0], [...wrapper.slice(1), 'true'], { stdio: 'ignore', timeout: 5000 });
    namespaceWrapper = probe.status === 0 ? wrapper : undefined;
  } else namespaceWrapper = undefined;
  return namespaceWrapper;
}

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
    const [command, ...args] = [...(request.wrapper ?? []), request.shell, '-c', request.command];
    const child = spawn(command, args, {
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
    let chunks = 0;
    let recheck = 0;
    // On a loaded machine the loop can run a whole grace late, with the shell's last output still
    // unread in the pipe: let one more poll phase read it (setImmediate runs after it), and keep
    // waiting, a bounded number of times, while output is still arriving.
    const dropPipesWhenQuiet = (): void => {
      const seen = chunks;
      setImmediate(() => {
        if (chunks !== seen && ++recheck < PIPE_RECHECKS) {
          grace = setTimeout(dropPipesWhenQuiet, PIPE_RECHECK_MS);
          return;
        }
        child.stdout.destroy();
        child.stderr.destroy();
      });
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      chunks++;
      stdout.push(chunk);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      chunks++;
      stderr.push(chunk);
    });
    child.once('error', (err) => {
      outcome.spawnError = err;
      finish();
    });
    child.once('exit', (code, signal) => {
      outcome.code = code;
      outcome.signal = signal;
      killGroup();
      grace = setTimeout(dropPipesWhenQuiet, PIPE_GRACE_MS);
    });
    child.once('close', finish);
    if (request.signal.aborted) onAbort();
  });
}
