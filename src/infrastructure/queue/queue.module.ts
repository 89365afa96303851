// QueueModule: the queue (BullMQ on Redis or PostgreSQL) behind RUN_QUEUES. Its provider loads nothing of
// BullMQ: LazyRunQueues requires it when a command opens a queue (docs/scale-out.md).
import { Module } from '@nestjs/common';
import { RUN_QUEUES } from '../../domain/ports/run-queue.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import { SECRET_MASKER } from '../../domain/ports/tokens';
import { LazyRunQueues } from './lazy-run-queues';

@Module({
  providers: [
    { provide: RUN_QUEUES, useFactory: (masker: SecretMasker) => new LazyRunQueues(masker), inject: [SECRET_MASKER] },
  ],
  exports: [RUN_QUEUES],
})
export class QueueModule {}
