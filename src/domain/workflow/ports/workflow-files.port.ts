import type { FileProbe } from '../../ports/file-probe.port';

/** Why a file could not be read. */
export type FileProblem = 'missing' | 'directory' | 'too-large' | 'unreadable';

/** A file's text, or why there is none (never a half-read file). */
export type FileRead = { text: string } | { problem: FileProblem; detail?: string };

/**
 * The files a workflow reads besides itself: `script_file`, `prompt_file`, `@prompts/` input
 * values, the template function `readFile`, and agent roles and skills (AGENTS.md, SKILL.md).
 * Contract: `read` takes an absolute path and returns the UTF-8 text of a regular file of at
 * most `maxBytes` bytes, or the problem; it never throws for the file's own state. `exists`
 * (from FileProbe) is true for any existing path, file or directory, as AWF's os.Stat checks are.
 */
export interface WorkflowFiles extends FileProbe {
  read(path: string, maxBytes: number): FileRead;
  /**
   * The regular files under `dir`, as sorted paths relative to it, at most `maxDepth` directories
   * down, never inside `.git` or `node_modules` (a skill's resources); `[]` for no such directory.
   */
  list(dir: string, maxDepth: number): string[];
}

export const WORKFLOW_FILES = Symbol.for('awf.WorkflowFiles');
