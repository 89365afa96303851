import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { reapGroup } from '../core/process-tree';
import { AwfError } from '../../domain/errors/awf-error';
import { withStderrTail } from '../../domain/errors/stderr-tail';
import { ErrorCodes } from '../../domain/errors/error-codes';

export interface AgentProcessSpec {
  /** Provider name, for messages (`claude exited with code 1`). */
  provider: string;
  binary: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** 0 or absent: no timeout beyond `signal`. */
  timeoutMs?: number;
  signal: AbortSignal;
  /** How long the group gets between SIGTERM and SIGKILL. */
  killGraceMs?: number;
  /** Where to point users when the binary is missing. */
  installHint?: string;
  /** Each complete stdout line as it arrives (a CLI's JSON events, watched while it runs). */
  onStdoutLine?: (line: string) => void;
}

export interface AgentProcessOutput {
  stdout: string;
  stderrTail: string[];
  exitCode: number;
}

const STDOUT_CAP = 32 * 1024 * 1024;
const STDERR_KEEP = 16 * 1024;
const TAIL_LINES = 20;

/**
 * Runs an agent CLI in its own process group with stdin closed, and settles only once the
 * whole group is gone: the CLI's own children (the MCP servers it spawned) included.
 * Missing binary, non-zero exit, timeout and cancellation each reject with their own
 * `EXECUTION.AGENT.*` code carrying the CLI's last stderr lines.
 */
export function runAgentProcess(spec: AgentProcessSpec): Promise<AgentProcessOutput> {
  const grace = spec.killGraceMs ?? 5000;
  if (spec.signal.aborted) return Promise.reject(cancelled(spec, []));
  return new Promise((resolve, reject) => {
    // Some CLIs (OpenCode) take their workspace from $PWD rather than the real cwd: keep them in agreement.
    const env = { ...spec.env, PWD: spec.cwd };
    const child = spawn(spec.binary, spec.args, {
      cwd: spec.cwd,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let ending: 'timeout' | 'cancelled' | undefined;
    let settled = false;

    const lines = spec.onStdoutLine ? lineSplitter(spec.onStdoutLine) : undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdoutBytes < STDOUT_CAP) stdout.push(chunk);
      stdoutBytes += chunk.length;
      lines?.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEEP);
    });

    let reaping: Promise<void> | undefined;
    const endGroup = (why: 'timeout' | 'cancelled') => {
      ending ??= why;
      reaping ??= reapGroup(child.pid, grace);
    };
    const timer = spec.timeoutMs ? setTimeout(() => endGroup('timeout'), spec.timeoutMs) : undefined;
    const onAbort = () => endGroup('cancelled');
    spec.signal.addEventListener('abort', onAbort, { once: true });

    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      spec.signal.removeEventListener('abort', onAbort);
      fn();
    };

    child.once('error', (err: NodeJS.ErrnoException) => {
      if (child.pid !== undefined) return; // an error after start surfaces as the exit below
      finish(() => reject(spawnFailed(spec, err)));
    });
    // 'exit' can come before the last stdout bytes are read: the result event is often the last line.
    const drained = new Promise<void>((r) => child.once('close', () => r()));
    child.once('exit', (code, signal) => {
      // Whatever the CLI left in its group (an MCP server it did not stop) goes with it.
      // A stop that began before the exit took the tree while it was whole: it is waited for too.
      void Promise.all([reaping, reapGroup(child.pid, grace)]).then(async () => {
        // A grandchild that left the group may still hold the pipes: do not wait on it forever.
        await Promise.race([drained, sleep(2000)]);
        child.stdout.destroy();
        child.stderr.destroy();
        lines?.end();
        const tail = lastLines(stderr);
        finish(() => {
          if (ending === 'timeout') return reject(timedOut(spec, tail));
          if (ending === 'cancelled') return reject(cancelled(spec, tail));
          if (code !== 0) return reject(exitedNonZero(spec, code, signal, tail));
          resolve({ stdout: Buffer.concat(stdout).toString('utf8'), stderrTail: tail, exitCode: 0 });
        });
      });
    });
  });
}

/** Feeds `onLine` whole lines of a byte stream; a watcher that throws never breaks the run. */
function lineSplitter(onLine: (line: string) => void): { push(chunk: Buffer): void; end(): void } {
  const decoder = new StringDecoder('utf8'); // a character may straddle two chunks
  let partial = '';
  const emit = (line: string) => {
    try {
      onLine(line);
    } catch {
      // The output is parsed again in full when the CLI ends; a watcher's fault is not the agent's.
    }
  };
  return {
    push(chunk) {
      const text = partial + decoder.write(chunk);
      const parts = text.split('\n');
      partial = parts.pop() ?? '';
      // A line longer than the cap is not an event anyone watches for: drop it rather than grow.
      if (partial.length > STDOUT_CAP) partial = '';
      for (const line of parts) emit(line);
    },
    end() {
      partial += decoder.end();
      if (partial) emit(partial);
      partial = '';
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function lastLines(text: string, count = TAIL_LINES): string[] {
  return text
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '')
    .slice(-count);
}

function spawnFailed(spec: AgentProcessSpec, err: NodeJS.ErrnoException): AwfError {
  const missing = err.code === 'ENOENT';
  return new AwfError(
    ErrorCodes.AGENT_BINARY_NOT_FOUND,
    missing
      ? `${spec.provider}: binary "${spec.binary}" not found`
      : `${spec.provider}: cannot start "${spec.binary}": ${err.code ?? err.message}`,
    { provider: spec.provider, binary: spec.binary, errno: err.code },
    spec.installHint ?? `Install the ${spec.provider} CLI, or set options.binary to its path.`,
  );
}

function exitedNonZero(
  spec: AgentProcessSpec,
  code: number | null,
  signal: NodeJS.Signals | null,
  tail: string[],
): AwfError {
  const how = code !== null ? `exited with code ${code}` : `was killed by ${signal}`;
  return new AwfError(ErrorCodes.AGENT_EXIT_NONZERO, withStderrTail(`${spec.provider} ${how}`, tail), {
    provider: spec.provider,
    binary: spec.binary,
    exit_code: code,
    signal,
    stderr: tail,
  });
}

function timedOut(spec: AgentProcessSpec, tail: string[]): AwfError {
  return new AwfError(
    ErrorCodes.EXECUTION_AGENT_TIMEOUT,
    withStderrTail(`${spec.provider} timed out after ${spec.timeoutMs} ms`, tail),
    { provider: spec.provider, timeoutMs: spec.timeoutMs, stderr: tail },
    'Raise the step timeout, or make the prompt ask for less.',
  );
}

function cancelled(spec: AgentProcessSpec, tail: string[]): AwfError {
  return new AwfError(ErrorCodes.AGENT_CANCELLED, `${spec.provider} was cancelled`, {
    provider: spec.provider,
    stderr: tail,
  });
}
