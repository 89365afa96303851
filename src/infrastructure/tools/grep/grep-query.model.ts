/** What both Grep engines receive and return; plain data, so it crosses a worker boundary as is. */
export type GrepMode = 'files_with_matches' | 'content' | 'count';

export interface GrepQuery {
  pattern: string;
  ignoreCase: boolean;
  multiline: boolean;
  /** The caller's `glob` filter (a leading `!` excludes). */
  glob?: string;
  /** Basename globs of the caller's `type`. */
  typeGlobs?: string[];
  before: number;
  after: number;
}

export interface GrepRequest {
  /** Real absolute path of the sandbox root: the walk starts from its descriptor. */
  root: string;
  /** The file or directory searched, relative to the root ('' is the root): walked to again, never opened by path. */
  targetRel: string;
  /** Real absolute path of the target, as hits are shown. */
  target: string;
  targetIsDir: boolean;
  query: GrepQuery;
  maxFileBytes: number;
  mode: GrepMode;
  /** Stop once more than this many entries (files, or output lines in content mode) were found. */
  stopAfter: number;
}

export interface GrepLine {
  line: number;
  text: string;
  match: boolean;
}

export interface GrepFileHit {
  path: string;
  lines: GrepLine[];
  matchedLines: number;
}

export interface GrepOutcome {
  hits: GrepFileHit[];
  stopped: boolean;
}

export interface GrepEngine {
  readonly name: 'ripgrep' | 'js';
  search(request: GrepRequest, signal: AbortSignal, timeoutMs: number): Promise<GrepOutcome>;
}

/** Larger files are skipped by both engines: the JS walker holds one file in memory at a time. */
export const GREP_MAX_FILE_BYTES = 64 * 1024 * 1024;

/** `type` values: our own table, handed to ripgrep with --type-add so both engines agree. */
export const GREP_FILE_TYPES: Readonly<Record<string, readonly string[]>> = {
  js: ['*.js', '*.jsx', '*.mjs', '*.cjs'],
  ts: ['*.ts', '*.tsx', '*.mts', '*.cts'],
  py: ['*.py', '*.pyi'],
  go: ['*.go'],
  rust: ['*.rs'],
  java: ['*.java'],
  c: ['*.c', '*.h'],
  cpp: ['*.cpp', '*.cc', '*.cxx', '*.c++', '*.hpp', '*.hh', '*.hxx', '*.h'],
  md: ['*.md', '*.markdown', '*.mdx'],
  json: ['*.json', '*.jsonl'],
  yaml: ['*.yaml', '*.yml'],
  toml: ['*.toml'],
  sh: ['*.sh', '*.bash'],
  html: ['*.html', '*.htm'],
  css: ['*.css', '*.scss', '*.less'],
  rb: ['*.rb'],
  php: ['*.php'],
  kotlin: ['*.kt', '*.kts'],
  swift: ['*.swift'],
  csharp: ['*.cs'],
  sql: ['*.sql'],
  txt: ['*.txt'],
};

/** Counts what the formatter will print, so engines stop at the same place. */
export function entriesOf(hit: GrepFileHit, mode: GrepMode): number {
  return mode === 'content' ? hit.lines.length : 1;
}
