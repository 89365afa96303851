/**
 * Calls `onGone` once the process `pid` no longer exists. Agent CLIs that crash or are
 * SIGKILLed never close our stdin cleanly, so this is what keeps `mcp-serve` from
 * outliving the run that started it.
 */
export function watchOwner(pid: number | undefined, onGone: () => void, intervalMs = 500): () => void {
  if (!pid) return () => {};
  const timer = setInterval(() => {
    if (!isAlive(pid)) {
      clearInterval(timer);
      onGone();
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
