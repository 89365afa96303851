import type { ChildProcess } from 'node:child_process';
import { signalGroup } from '../core/process-tree';

export const KILL_GRACE_MS = 5_000;

/**
 * Stops a process started with `detached: true` and everything it spawned: SIGTERM to the
 * group, SIGKILL to the group after the grace period. Resolves once the leader has exited.
 */
export function stopProcessGroup(child: ChildProcess, graceMs: number = KILL_GRACE_MS): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  const pid = child.pid;
  return new Promise((resolve) => {
    const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      // Grandchildren that ignored SIGTERM must not outlive their leader.
      signalGroup(pid, 'SIGKILL');
      resolve();
    });
    signalGroup(pid, 'SIGTERM');
  });
}
