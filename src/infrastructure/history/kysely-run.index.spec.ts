import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { historyLocation } from './history-location';
import { KyselyRunIndex } from './kysely-run.index';
import { openDatabase } from './sqlite.loader';

/** history.db as the awf before Kysely wrote it (test/fixtures/history/README.md). */
const MAIN_FIXTURE = join(__dirname, '../../../test/fixtures/history/main-2ea73ce.history.db');

describe('KyselyRunIndex on SQLite (what is particular to a file)', () => {
  let dir: string;
  let index: KyselyRunIndex;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'awf-history-'));
    index = new KyselyRunIndex(
      () => historyLocation(undefined, { AWF_STORAGE: dir }),
      () => [],
      (id) => join(dir, 'runs', id),
    );
  });
  afterEach(async () => {
    await index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the file in WAL mode, and makes no backup of a new file', async () => {
    const migration = await index.migrate();
    expect(migration).toMatchObject({ history: join(dir, 'history.db'), version: '0003_run_host' });
    expect(migration.backup).toBeUndefined();
    await index.close();
    const db = openDatabase(join(dir, 'history.db'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('migrates a history.db of the awf before Kysely in place, after a backup, and keeps its runs', async () => {
    copyFileSync(MAIN_FIXTURE, join(dir, 'history.db'));
    const migration = await index.migrate();
    expect(migration.applied).toEqual(['0001_runs', '0002_tool_call_event', '0003_run_host']);
    expect(migration.backup).toMatch(/history\.db\..*\.bak$/);
    expect(existsSync(migration.backup!)).toBe(true);
    const runs = await index.list({});
    expect(runs.map((r) => [r.workflow, r.status, r.steps])).toEqual([
      ['two-steps', 'success', 2],
      ['two-steps', 'success', 2],
    ]);
    const run = await index.get(runs[0].run_id);
    expect(run.step_records.map((s) => [s.name, s.state.Output.trim()])).toEqual([
      ['hello', 'hello'],
      ['bye', 'bye'],
    ]);
    // The backup is the file as it was: the old schema, no migration table.
    const copy = openDatabase(migration.backup!);
    expect(copy.prepare(`SELECT name FROM sqlite_master WHERE name = 'awf_migration'`).all()).toEqual([]);
    expect(copy.prepare('SELECT COUNT(*) AS n FROM runs').get()).toEqual({ n: 2 });
    copy.close();
    await index.close();
    expect((await index.migrate()).applied).toEqual([]);
  });

  it('lets concurrent first opens of one new file take turns: each finds the schema made', async () => {
    const others = Array.from(
      { length: 4 },
      () =>
        new KyselyRunIndex(
          () => historyLocation(undefined, { AWF_STORAGE: dir }),
          () => [],
          () => '',
        ),
    );
    try {
      const done = await Promise.all(others.map((o) => o.migrate()));
      expect(done.flatMap((d) => d.applied).sort()).toEqual(['0001_runs', '0002_tool_call_event', '0003_run_host']);
      await Promise.all(
        others.map((o, i) =>
          o.begin({ run_id: `r${i}`, workflow: 'wf', file: '', cwd: '', inputs: {}, started_at: '2026-01-01' }),
        ),
      );
      expect(await index.list({})).toHaveLength(4);
    } finally {
      await Promise.all(others.map((o) => o.close()));
    }
  });

  it('turns a missing native build into SYSTEM.HISTORY.UNAVAILABLE', () => {
    expect(() =>
      openDatabase(join(dir, 'x.db'), () => {
        throw new Error('Could not locate the bindings file. Tried: build/better_sqlite3.node');
      }),
    ).toThrow(expect.objectContaining({ code: 'SYSTEM.HISTORY.UNAVAILABLE' }));
  });
});

describe('KyselyRunIndex on a PostgreSQL that does not answer', () => {
  it('names the URL with its password masked (SYSTEM.*: exit 4)', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const p = (server.address() as { port: number }).port;
        server.close(() => resolve(p));
      });
    });
    const url = `postgres://awf:hunter2@127.0.0.1:${port}/awf`;
    const index = new KyselyRunIndex(
      () => historyLocation(url),
      () => [],
      () => '',
    );
    const err = (await index.list({}).catch((e: unknown) => e)) as Error & { hint?: string };
    expect(err).toMatchObject({
      code: 'SYSTEM.HISTORY.UNREACHABLE',
      message: expect.stringContaining(`postgres://awf:***@127.0.0.1:${port}/awf`),
    });
    expect(
      JSON.stringify({ message: err.message, hint: err.hint, details: (err as { details?: unknown }).details }),
    ).not.toContain('hunter2');
    await index.close();
  });

  it('refuses a URL that is not postgres://, hiding it whole when it does not parse', () => {
    expect(() => historyLocation('mysql://u:hunter2@h/db')).toThrow(
      expect.objectContaining({ code: 'USER.HISTORY.INVALID_URL', message: expect.not.stringContaining('hunter2') }),
    );
    expect(() => historyLocation('hunter2 nonsense')).toThrow(
      expect.objectContaining({ message: 'the history URL <invalid URL> is not a postgres:// URL' }),
    );
  });
});
