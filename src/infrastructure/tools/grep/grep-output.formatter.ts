import type { GrepFileHit, GrepMode } from './grep-query.model';

/**
 * About 25 000 tokens: Claude Code rejects larger MCP results outright, so a long answer is cut
 * here, with a note, rather than lost there.
 */
export const MAX_OUTPUT_CHARS = 100_000;

export interface GrepFormat {
  mode: GrepMode;
  lineNumbers: boolean;
  withContext: boolean;
  /** The smaller of the caller's head_limit and the configured cap. */
  limit: number;
  headLimited: boolean;
  lineMaxChars: number;
  /** The engine stopped before the end, so more results exist than it returned. */
  stopped: boolean;
}

/**
 * The one formatter both engines feed: `path:line:text` for matches, `path-line-text` for
 * context lines and `--` between separate groups, as ripgrep prints them.
 */
export function formatGrep(hits: readonly GrepFileHit[], f: GrepFormat): string {
  const entries: string[] = [];
  let counted = 0;
  let chars = 0;
  let truncated = f.stopped;
  const full = (next: string): boolean =>
    counted === f.limit || (counted > 0 && chars + next.length > MAX_OUTPUT_CHARS);
  outer: for (const hit of hits) {
    if (f.mode !== 'content') {
      const entry = f.mode === 'count' ? `${hit.path}:${hit.matchedLines}` : hit.path;
      if (full(entry)) {
        truncated = true;
        break;
      }
      entries.push(entry);
      chars += entry.length + 1;
      counted++;
      continue;
    }
    let previous: number | undefined;
    for (const line of hit.lines) {
      const sep = line.match ? ':' : '-';
      const text =
        line.text.length > f.lineMaxChars
          ? `${line.text.slice(0, f.lineMaxChars)}… [line truncated: ${line.text.length - f.lineMaxChars} more characters]`
          : line.text;
      const entry = f.lineNumbers ? `${hit.path}${sep}${line.line}${sep}${text}` : `${hit.path}${sep}${text}`;
      if (full(entry)) {
        truncated = true;
        break outer;
      }
      if (f.withContext && entries.length > 0 && previous !== line.line - 1) entries.push('--');
      entries.push(entry);
      chars += entry.length + 1;
      previous = line.line;
      counted++;
    }
  }
  if (entries.length === 0) return 'No matches found';
  const header =
    f.mode === 'files_with_matches'
      ? [`Found ${counted} file${counted === 1 ? '' : 's'}${truncated ? ' (more exist)' : ''}`]
      : [];
  const unit = f.mode === 'content' ? 'lines' : 'files';
  const note = truncated
    ? [
        `[Results truncated: showing ${counted} ${unit}. ${f.headLimited && counted === f.limit ? 'Raise head_limit to see more' : 'Narrow the pattern, path, glob or type'}.]`,
      ]
    : [];
  return [...header, ...entries, ...note].join('\n');
}
