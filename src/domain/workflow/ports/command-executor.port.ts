export interface CommandRequest {
  command: string;
  cwd: string;
  env: Readonly<Record<string, string>>;
  /** 0: none. */
  timeoutMs: number;
  signal: AbortSignal;
  /**
   * The command is a script_file's text that starts with `#!`: it runs as an executable file of
   * its own (its interpreter is the shebang's), not through `$SHELL -c` (AWF's ADR 014).
   */
  script?: boolean;
  /** Each chunk of output as it arrives (`awf run -o streaming`); the result still holds all of it. */
  onOutput?: (stream: 'stdout' | 'stderr', text: string) => void;
}

export interface CommandResult {
  stdout: string;
  stderr: string;
  /** -1 when the process was stopped (timeout or cancel). */
  exitCode: number;
  timedOut: boolean;
  cancelled: boolean;
  /**
   * Bytes cut from the middle of a stream longer than the capture holds; the text keeps its head
   * and tail with a `[… N bytes truncated …]` line between. Absent when nothing was cut.
   */
  truncated?: { stdout: number; stderr: number };
}

/**
 * Runs a command step's shell text. Contract: the command runs in its own process group;
 * on timeout or abort the whole group gets SIGTERM, then SIGKILL after 5 s, and `run`
 * settles only once the group leader has exited. A non-zero exit is a result, not an error.
 */
export interface CommandExecutor {
  run(request: CommandRequest): Promise<CommandResult>;
}

export const COMMAND_EXECUTOR = Symbol.for('awf.CommandExecutor');
