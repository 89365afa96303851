/**
 * How a long-running use case learns that its process must stop: a signal (SIGINT, SIGTERM)
 * or the process that owns it gone. Implemented by the process's one signal handler.
 */
export interface ProcessLifetime {
  /** Aborted on the first SIGINT or SIGTERM; a second one forces the exit. */
  readonly signal: AbortSignal;
  /** Calls `onGone` once process `pid` no longer exists (no-op without a pid); returns a stop. */
  watchOwner(pid: number | undefined, onGone: () => void): () => void;
}

export const PROCESS_LIFETIME = Symbol.for('awf.ProcessLifetime');
