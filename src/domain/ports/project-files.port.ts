/**
 * The files of the project in the working directory, for `awf init`: paths are relative to
 * it. `write` creates missing parent directories and replaces the file whole (a temp file and a
 * rename), so an interrupted init leaves no half-written file.
 */
export interface ProjectFiles {
  /** The absolute project directory. */
  root(): string;
  exists(relativePath: string): boolean;
  write(relativePath: string, content: string, mode: number): void;
}

export const PROJECT_FILES = Symbol.for('awf.ProjectFiles');
