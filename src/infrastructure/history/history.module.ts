// HistoryModule (global): the runs on disk (RUN_HISTORY: each run's directory and audit
// JSONL), their index in <storage>/history.db (RUN_INDEX: state and history in SQLite) and
// their transcripts in <storage>/transcripts (TRANSCRIPT_STORE).
// Only the full CLI imports it: `mcp-serve` never loads better-sqlite3, and the database is
// opened on first use, never when the module is made. Must never import another feature
// module, the MCP SDK or the CLI.
import { Global, Inject, Module, type OnModuleDestroy } from '@nestjs/common';
import { join } from 'node:path';
import { RUN_HISTORY } from '../../domain/ports/run-history.port';
import { RUN_INDEX } from '../../domain/ports/run-index.port';
import { TRANSCRIPT_STORE } from '../../domain/ports/transcript-store.port';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import { APP_LOGGER, SECRET_MASKER } from '../../domain/ports/tokens';
import { RunFilesStore, runsRoot, storageRoot } from './run-files.store';
import { historyFile, SqliteRunIndex } from './sqlite-run.index';
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
      useFactory: (files: RunFilesStore, logger: AppLogger) =>
        new SqliteRunIndex(
          () => historyFile(storageRoot()),
          (path) => files.readEvents(path),
          (id) => join(runsRoot(), id),
          logger,
        ),
      inject: [RUN_HISTORY, APP_LOGGER],
    },
  ],
  exports: [RUN_HISTORY, RUN_INDEX, TRANSCRIPT_STORE],
})
export class HistoryModule implements OnModuleDestroy {
  constructor(@Inject(RUN_INDEX) private readonly index: SqliteRunIndex) {}

  onModuleDestroy(): void {
    this.index.close();
  }
}
