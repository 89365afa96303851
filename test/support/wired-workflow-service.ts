import type { DynamicModule } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { WorkflowService } from '../../src/application/workflow/workflow.service';
import { ProjectConfigModule } from '../../src/infrastructure/config/project-config.module';
import { CoreModule } from '../../src/infrastructure/core/core.module';
import { WorkflowModule } from '../../src/infrastructure/workflow/workflow.module';

type ModuleImport = NonNullable<DynamicModule['imports']>[number];

/**
 * The WorkflowService of a Nest container wired as the CLI wires it (project config, core,
 * workflow, plus `extra`), for the describe block that calls this: built in its beforeAll,
 * closed in its afterAll. Read `.service` inside tests, once the container is up.
 */
export function wiredWorkflowService(extra: ModuleImport[] = []): { service: WorkflowService } {
  const wired = { service: undefined as unknown as WorkflowService };
  let app: TestingModule | undefined;
  beforeAll(async () => {
    app = await Test.createTestingModule({
      imports: [ProjectConfigModule.forRoot(), CoreModule, WorkflowModule, ...extra],
    }).compile();
    await app.init();
    wired.service = app.get(WorkflowService);
  });
  afterAll(() => app?.close());
  return wired;
}
