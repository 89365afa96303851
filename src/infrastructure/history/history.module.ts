// HistoryModule (global): the runs on disk (RUN_HISTORY: each run's directory and audit
// JSONL), their index (RUN_INDEX: state and history in <storage>/history.db, or in PostgreSQL
// with --history / AWF_HISTORY_URL) and their transcripts in <storage>/transcripts (TRANSCRIPT_STORE).
// Only the full CLI imports it: `mcp-serve` never loads better-sqlite3 or pg, and the database
// is opened on first use, never when the module is made. Must never import another feature
// module, the MCP SDK or the CLI.
import { Global, Inject, Module, type OnModuleDestroy } from '@nestjs/common';
import { join } from 'node:path';
import { RUN_HISTORY } from '../../domain/ports/run-history.port';
import { RUN_INDEX } from '../../domain/ports/run-index.port';
import { TRANSCRIPT_STORE } from '../../domain/ports/transcript-store.port';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import { APP_LOGGER, SECRET_MASKER } from '../../domain/ports/tokens';
import { HISTORY_URL_FLAG } from './history-flag.module';
import { historyLocation } from './history-location';
import { KyselyRunIndex } from './kysely-run.index';
import { RunFilesStore, runsRoot } from './run-files.store';
import { TranscriptFilesStore } from './transcript-files.store';

@Global()
@Module({
  providers: [
    {
      provide: RUN_HISTORY,
      useFactory: (masker: SecretMasker) => new RunFilesStore(undefined, masker),
      inject: [SECRET_MASKER],
    },
    { provide: TRANSCRIPT_STORE, useFactory: () => new TranscriptFilesStore() },
    {
      provide: RUN_INDEX,
      // Paths are read per call: --storage sets AWF_STORAGE before any command runs.
      useFactory: (files: RunFilesStore, logger: AppLogger, masker: SecretMasker, flag?: string) =>
        new KyselyRunIndex(
          () => {
            const location = historyLocation(flag);
            // The password goes to the masker before anything connects: no message shows it.
            if (location.dialect === 'postgres' && location.password) masker.add(location.password);
            return location;
          },
          (path) => files.readEvents(path),
          (id) => join(runsRoot(), id),
          logger,
        ),
      inject: [RUN_HISTORY, APP_LOGGER, SECRET_MASKER, { token: HISTORY_URL_FLAG, optional: true }],
    },
  ],
  exports: [RUN_HISTORY, RUN_INDEX, TRANSCRIPT_STORE],
})
export class HistoryModule implements OnModuleDestroy {
  constructor(@Inject(RUN_INDEX) private readonly index: KyselyRunIndex) {}

  async onModuleDestroy(): Promise<void> {
    await this.index.close();
  }
}
