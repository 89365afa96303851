import type { AppLogger } from '../../domain/ports/app-logger.port';
import type { HistoryLocation } from './history-location';
import type { HistoryConnection } from './history.connection';

/**
 * The history's connection, opened (and migrated) on first use, once per process. A failed open
 * is tried again by the next call: PostgreSQL may be back.
 */
export class LazyHistory {
  private connection?: Promise<HistoryConnection>;

  constructor(
    private readonly location: () => HistoryLocation,
    private readonly logger?: AppLogger,
  ) {}

  open(): Promise<HistoryConnection> {
    // Kysely and the drivers load here: commands that never read the history never parse them.
    const { openHistory } = require('./history.connection') as typeof import('./history.connection');
    this.connection ??= openHistory(this.location()).then(
      (c) => {
        const { label } = this.location();
        this.logger?.debug({ history: label, applied: c.migration.applied }, 'run history opened');
        if (c.migration.backup) this.logger?.info({ backup: c.migration.backup }, 'run history migrated; copy kept');
        return c;
      },
      (err: unknown) => {
        this.connection = undefined;
        throw err;
      },
    );
    return this.connection;
  }

  async close(): Promise<void> {
    const open = this.connection;
    this.connection = undefined;
    await open?.then((c) => c.db.destroy()).catch(() => undefined);
  }
}
