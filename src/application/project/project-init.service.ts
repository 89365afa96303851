import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { ProjectFiles } from '../../domain/ports/project-files.port';
import { STARTER_FILES } from './starter-project';

export interface InitResult {
  root: string;
  created: string[];
  /** With --force: the starter files that existed and were written again. */
  replaced: string[];
}

/** `awf init`: the starter `.awf/` in the working directory, never over existing files unless forced. */
export class ProjectInitService {
  constructor(private readonly files: ProjectFiles) {}

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
