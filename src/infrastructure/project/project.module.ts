// ProjectModule: the working directory as a project, for `awf init`, `awf list prompts` and
// `awf config show`: the prompt directories, the project's files, and the effective settings
// (read where each area reads them). Full CLI only; must never import the CLI, the MCP edge or
// an SDK, and nothing on the tool-call path may need it.
import { Module } from '@nestjs/common';
import { EFFECTIVE_CONFIG } from '../../domain/ports/effective-config.port';
import { PROJECT_FILES } from '../../domain/ports/project-files.port';
import { PROMPT_LIBRARY } from '../../domain/ports/prompt-library.port';
import { EffectiveConfigReader } from './effective-config.reader';
import { FsProjectFiles } from './fs-project.files';
import { FsPromptLibrary } from './fs-prompt.library';

@Module({
  providers: [
    { provide: PROMPT_LIBRARY, useFactory: () => new FsPromptLibrary() },
    { provide: PROJECT_FILES, useFactory: () => new FsProjectFiles() },
    { provide: EFFECTIVE_CONFIG, useFactory: () => new EffectiveConfigReader() },
  ],
  exports: [PROMPT_LIBRARY, PROJECT_FILES, EFFECTIVE_CONFIG],
})
export class ProjectModule {}
