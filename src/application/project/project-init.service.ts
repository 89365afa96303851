import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { ProjectFiles } from '../../domain/ports/project-files.port';
import { GLOBAL_STARTER_FILES, STARTER_FILES } from './starter-project';

export interface InitResult {
  root: string;
  created: string[];
  /** With --force: the starter files that existed and were written again. */
  replaced: string[];
  /** `--global` without --force: the files that exist and were left as they are. */
  kept?: string[];
}

/** `awf init`: the starter `.awf/` in the working directory, never over existing files unless forced. */
export class ProjectInitService {
  constructor(
    private readonly files: ProjectFiles,
    /** AWF's config dir (`$XDG_CONFIG_HOME/awf`), for `--global`. */
    private readonly globalFiles?: ProjectFiles,
  ) {}

  /**
   * `awf init --global`: the shared prompts/ and scripts/ with an example each. As AWF's does, it
   * never fails for what exists: existing files are kept, or written again with --force.
   */
  initGlobal(options: { force?: boolean } = {}): InitResult {
    const files = this.globalFiles!;
    const existing = GLOBAL_STARTER_FILES.filter((f) => files.exists(f.path)).map((f) => f.path);
    const written = GLOBAL_STARTER_FILES.filter((f) => options.force || !existing.includes(f.path));
    for (const file of written) files.write(file.path, file.content, file.mode);
    return {
      root: files.root(),
      created: written.map((f) => f.path).filter((p) => !existing.includes(p)),
      replaced: options.force ? existing : [],
      kept: options.force ? [] : existing,
    };
  }

  init(options: { force?: boolean } = {}): InitResult {
    const existing = STARTER_FILES.filter((f) => this.files.exists(f.path)).map((f) => f.path);
    if (existing.length && !options.force) {
      throw new AwfError(
        ErrorCodes.INIT_ALREADY_INITIALIZED,
        `awf is already initialized in ${this.files.root()}: ${existing.join(', ')} exist`,
        { existing },
        'Pass --force to write the starter files again (other files are left alone).',
      );
    }
    for (const file of STARTER_FILES) this.files.write(file.path, file.content, file.mode);
    return {
      root: this.files.root(),
      created: STARTER_FILES.map((f) => f.path).filter((p) => !existing.includes(p)),
      replaced: existing,
    };
  }
}
