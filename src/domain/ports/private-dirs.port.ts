/**
 * A directory only this user can read (0700), for files that may name commands, environment
 * or sockets: a step's proxy config, an agent CLI's injected config, a private channel.
 */
export interface PrivateDir {
  /** The directory's absolute path; it is made on first use. */
  readonly path: string;
  /** Writes `name` in it atomically (unique temp file + rename), mode 0600; its absolute path. */
  write(name: string, content: string): string;
  /** Removes the directory and all in it. Idempotent; a directory never made is fine. */
  remove(): void;
}

/** Makes private directories under the system's temp dir, each name starting with `prefix`. */
export interface PrivateDirs {
  make(prefix: string): PrivateDir;
  /**
   * Removes the `prefix*` directories an earlier process left behind when it was killed (its
   * owner, by pid and start time, is gone); never one whose owner still runs.
   */
  sweep?(prefix: string): void;
}

export const PRIVATE_DIRS = Symbol.for('awf.PrivateDirs');
