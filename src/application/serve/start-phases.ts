/**
 * Milliseconds since this process started, at each phase of an `mcp-serve` start (process
 * start → deserialized → container built → config read → tools open → first answer); logged
 * at debug level with the first answer, to see where a cold start goes (docs/performance.md).
 * Empty at import: the startup snapshot must not carry the build's marks.
 */
const marks: Array<[string, number]> = [];

export function markStartPhase(name: string): void {
  if (marks.length < 16) marks.push([name, Math.round(process.uptime() * 10_000) / 10]);
}

export function startPhases(): Record<string, number> {
  return Object.fromEntries(marks);
}
