import type { GrepFileHit, GrepMode } from './grep-query.model';

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
  let truncated = f.stopped;
  outer: for (const hit of hits) {
    if (f.mode !== 'content') {
      if (counted === f.limit) {
        truncated = true;
        break;
      }
      entries.push(f.mode === 'count' ? `${hit.path}:${hit.matchedLines}` : hit.path);
      counted++;
      continue;
    }
    let previous: number | undefined;
    for (const line of hit.lines) {
      if (counted === f.limit) {
        truncated = true;
        break outer;
      }
      if (f.withContext && entries.length > 0 && previous !== line.line - 1) entries.push('--');
      const sep = line.match ? ':' : '-';
      const text = line.text.length > f.lineMaxChars ? `${line.text.slice(0, f.lineMaxChars)}… [line truncated: ${line.text.length - f.lineMaxChars} more characters]` : line.text;
      entries.push(f.lineNumbers ? `${hit.path}${sep}${line.line}${sep}${text}` : `${hit.path}${sep}${text}`);
      previous = line.line;
      counted++;
    }
  }
  if (entries.length === 0) return 'No matches found';
  const header = f.mode === 'files_with_matches' ? [`Found ${counted} file${counted === 1 ? '' : 's'}${truncated ? ' (more exist)' : ''}`] : [];
  const unit = f.mode === 'content' ? 'lines' : f.mode === 'count' ? 'files' : 'files';
  const note = truncated
    ? [`[Results truncated at ${f.limit} ${unit}. ${f.headLimited ? 'Raise head_limit to see more' : 'Narrow the pattern, path, glob or type'}.]`]
    : [];
  return [...header, ...entries, ...note].join('\n');
}
