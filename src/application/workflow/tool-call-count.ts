import { readFileSync } from 'node:fs';

/**
 * Tool calls of one step, read from its audit JSONL (one line per call, written by
 * `mcp-serve`). A missing file means the step made none, or ran without a proxy.
 */
export function countToolCalls(eventsPath: string | undefined): number {
  if (!eventsPath) return 0;
  try {
    return readFileSync(eventsPath, 'utf8').split('\n').filter((line) => line.trim().startsWith('{')).length;
  } catch {
    return 0;
  }
}
