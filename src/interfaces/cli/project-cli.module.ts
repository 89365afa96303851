// ProjectCliModule: the rest of AWF's surface (issue #16): diagram, error, init, list prompts,
// config show, completion. Each command parses, calls one use case, renders. It may import
// every other module; nothing may import it but CliModule.
import { Module } from '@nestjs/common';
import { DiagramService } from '../../application/diagram/diagram.service';
import { ConfigShowService } from '../../application/project/config-show.service';
import { ProjectInitService } from '../../application/project/project-init.service';

import { WorkflowValidator } from '../../application/workflow/workflow-validator.service';
import { DIAGRAM_IMAGES, type DiagramImages } from '../../domain/ports/diagram-images.port';
import { EFFECTIVE_CONFIG, type EffectiveConfig } from '../../domain/ports/effective-config.port';
import { PROJECT_FILES, type ProjectFiles } from '../../domain/ports/project-files.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import { SECRET_MASKER } from '../../domain/ports/tokens';
import { WORKFLOW_REPOSITORY, type WorkflowRepository } from '../../domain/workflow/ports/workflow-repository.port';
import { DiagramModule } from '../../infrastructure/diagram/diagram.module';
import { ProjectModule } from '../../infrastructure/project/project.module';
import { WorkflowModule } from '../../infrastructure/workflow/workflow.module';
import { CompletionCommand } from './completion.command';
import { ConfigCommand, ConfigShowCommand } from './config-show.command';
import { DiagramCommand } from './diagram.command';
import { ErrorCommand } from './error.command';
import { InitCommand } from './init.command';
import { ListPromptsCommand } from './list-prompts.command';

@Module({
  imports: [ProjectModule, WorkflowModule, DiagramModule],
  providers: [
    {
      provide: DiagramService,
      useFactory: (repo: WorkflowRepository, validator: WorkflowValidator, images: DiagramImages) =>
        new DiagramService(repo, validator, images),
      inject: [WORKFLOW_REPOSITORY, WorkflowValidator, DIAGRAM_IMAGES],
    },
    {
      provide: ProjectInitService,
      useFactory: (files: ProjectFiles) => new ProjectInitService(files),
      inject: [PROJECT_FILES],
    },
    {
      provide: ConfigShowService,
      useFactory: (config: EffectiveConfig, masker: SecretMasker) => new ConfigShowService(config, masker),
      inject: [EFFECTIVE_CONFIG, SECRET_MASKER],
    },
    DiagramCommand,
    ErrorCommand,
    InitCommand,
    ListPromptsCommand,
    ConfigCommand,
    ConfigShowCommand,
    CompletionCommand,
  ],
})
export class ProjectCliModule {}
