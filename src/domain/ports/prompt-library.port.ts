/** One prompt file, as `awf list prompts` shows it (AWF's fields). */
export interface PromptFile {
  /** The path below its prompts directory, e.g. `review/security.md`: what `@prompts/<name>` names. */
  name: string;
  /** Which directory it came from: `env` ($AWF_PROMPTS_PATH), `local` (./.awf/prompts) or `global`. */
  source: 'env' | 'local' | 'global';
  path: string;
  size: number;
  /** Local time, `YYYY-MM-DD HH:MM:SS`, as AWF prints it. */
  modTime: string;
}

export interface PromptDir {
  dir: string;
  source: PromptFile['source'];
}

/**
 * The prompt files of AWF's prompt directories, searched in order ($AWF_PROMPTS_PATH, then
 * ./.awf/prompts, then the user's config dir): a name found in an earlier directory hides the
 * same name in a later one. Directories that do not exist are skipped; files in subdirectories
 * count, with their relative path as name.
 */
export interface PromptLibrary {
  list(): PromptFile[];
  searchPaths(): PromptDir[];
}

export const PROMPT_LIBRARY = Symbol.for('awf.PromptLibrary');
