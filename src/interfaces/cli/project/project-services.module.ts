// ProjectServicesModule: the use cases of `awf diagram`, `init`, `list prompts` and `config show`,
// wired to their ports; each command's container (command-table.ts) imports it.
import { Module } from '@nestjs/common';
import { DiagramService } from '../../../application/diagram/diagram.service';
import { ConfigShowService } from '../../../application/project/config-show.service';
import { ProjectInitService } from '../../../application/project/project-init.service';
import { awfDirs } from '../../../application/workflow/run/awf-dirs';

import { WorkflowValidator } from '../../../application/workflow/validation/workflow-validator.service';
import { DIAGRAM_IMAGES, type DiagramImages } from '../../../domain/ports/diagram-images.port';
import { EFFECTIVE_CONFIG, type EffectiveConfig } from '../../../domain/ports/effective-config.port';
import { PROJECT_FILES, type ProjectFiles } from '../../../domain/ports/project-files.port';
import type { SecretMasker } from '../../../domain/ports/secret-masker.port';
import { SECRET_MASKER } from '../../../domain/ports/tokens';
import { WORKFLOW_REPOSITORY, type WorkflowRepository } from '../../../domain/workflow/ports/workflow-repository.port';
import { DiagramModule } from '../../../infrastructure/diagram/diagram.module';
import { FsProjectFiles } from '../../../infrastructure/project/fs-project.files';
import { ProjectModule } from '../../../infrastructure/project/project.module';
import { WorkflowModule } from '../../../infrastructure/workflow/workflow.module';

@Module({
  imports: [ProjectModule, WorkflowModule, DiagramModule],
  providers: [
    {
      provide: DiagramService,
      // The image libraries load on the first `-o x.svg|png|pdf`, not when the service is made.
      useFactory: (repo: WorkflowRepository, validator: WorkflowValidator, images: DiagramImages) =>
        new DiagramService(repo, validator, images),
      inject: [WORKFLOW_REPOSITORY, WorkflowValidator, DIAGRAM_IMAGES],
    },
    {
      provide: ProjectInitService,
      useFactory: (files: ProjectFiles) =>
        new ProjectInitService(files, new FsProjectFiles(awfDirs(process.env).config_dir)),
      inject: [PROJECT_FILES],
    },
    {
      provide: ConfigShowService,
      useFactory: (config: EffectiveConfig, masker: SecretMasker) => new ConfigShowService(config, masker),
      inject: [EFFECTIVE_CONFIG, SECRET_MASKER],
    },
  ],
  exports: [DiagramService, ProjectInitService, ConfigShowService, ProjectModule],
})
export class ProjectServicesModule {}
