// QueuedRunsModule: both ends of a queued run (the job `awf run --queue` sends, what `awf worker`
// does with one) over the one WorkflowService of WorkflowModule.
import { Module } from '@nestjs/common';
import { QueuedRuns } from '../../application/queue/queued-runs.service';
import { WorkflowService } from '../../application/workflow/workflow.service';
import { WORKFLOW_REPOSITORY, type WorkflowRepository } from '../../domain/workflow/ports/workflow-repository.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import { SECRET_MASKER } from '../../domain/ports/tokens';
import { FsWorkflowFiles } from '../core/fs-workflow-files';
import { WorkflowModule } from '../workflow/workflow.module';
import { QueueModule } from './queue.module';

@Module({
  imports: [WorkflowModule, QueueModule],
  providers: [
    {
      provide: QueuedRuns,
      useFactory: (workflows: WorkflowService, repository: WorkflowRepository, masker: SecretMasker) =>
        new QueuedRuns(workflows, repository, new FsWorkflowFiles(), masker),
      inject: [WorkflowService, WORKFLOW_REPOSITORY, SECRET_MASKER],
    },
  ],
  exports: [QueuedRuns, QueueModule],
})
export class QueuedRunsModule {}
