/**
 * Milliseconds since this process started, at each phase of an `mcp-serve` start (container
 * built → config read → tools open); logged at debug level when it serves, to see where a cold
 * start goes (`AWF_LOG_LEVEL=debug`).
 */
const marks: Array<[string, number]> = [];

export function markStartPhase(name: string): void {
  if (marks.length < 16) marks.push([name, Math.round(process.uptime() * 10_000) / 10]);
}

export function startPhases(): Record<string, number> {
  return Object.fromEntries(marks);
}
