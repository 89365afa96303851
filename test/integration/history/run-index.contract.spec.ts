// The history's contract, the same tests against both backends: SQLite (the default) and a real
// PostgreSQL started for this suite (skipped, with its reason printed, where none is installed).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StepRecord } from '../../../src/domain/ports/run-index.port';
import { historyLocation, type HistoryLocation } from '../../../src/infrastructure/history/history-location';
import { openHistory } from '../../../src/infrastructure/history/history.connection';
import { KyselyRunIndex } from '../../../src/infrastructure/history/kysely-run.index';
import { NO_POSTGRES, type PostgresServer, startPostgres } from '../../support/postgres-server';
import { describeUnless } from '../../support/skip';

const state = { Output: 'out', Stderr: '', ExitCode: 0, Status: 'success' as const };
const step = (seq: number, name: string, next?: string): StepRecord => ({
  seq,
  name,
  type: 'step',
  status: 'success',
  started_at: new Date().toISOString(),
  duration_ms: 5,
  exit_code: 0,
  output: state.Output,
  tool_calls: 0,
  state,
  next,
});
const event = {
  tool: 'Read',
  source: 'builtin',
  start: '2026-01-01T00:00:00Z',
  duration_ms: 1.25,
  status: 'ok' as const,
  args_shape: { path: 'string' },
};

/** The contract; `fresh` gives each test an empty history of the backend. */
function contract(fresh: () => Promise<HistoryLocation>): void {
  let dir: string;
  let location: HistoryLocation;
  let index: KyselyRunIndex;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'awf-history-'));
    location = await fresh();
    index = new KyselyRunIndex(
      () => location,
      () => [event],
      (id) => join(dir, 'runs', id),
    );
  });
  afterEach(async () => {
    await index.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const begin = (id: string, started = new Date().toISOString()) =>
    index.begin({ run_id: id, workflow: 'wf', file: '/w.yaml', cwd: dir, inputs: { a: '1' }, started_at: started });
  /** Another process's view of the same history, for what the port does not do (a killed run's pid). */
  const raw = async <T>(use: (db: Awaited<ReturnType<typeof openHistory>>['db']) => Promise<T>) => {
    const { db } = await openHistory(location);
    try {
      return await use(db);
    } finally {
      await db.destroy();
    }
  };

  it('keeps the steps of a run, its tool calls with their whole audit events, and its outcome', async () => {
    await begin('abc-1');
    await index.stepFinished('abc-1', step(0, 'one', 'two'));
    await index.stepFinished('abc-1', { ...step(1, 'two'), type: 'agent', tool_calls: 1 }, '/events.jsonl');
    await index.finish('abc-1', {
      status: 'success',
      finished_at: new Date().toISOString(),
      duration_ms: 12,
      terminal: 'done',
    });
    const run = await index.get('abc-1');
    expect(run).toMatchObject({
      status: 'success',
      steps: 2,
      terminal: 'done',
      inputs: { a: '1' },
      current_step: 'two',
    });
    expect(run.step_records.map((s) => [s.name, s.next, s.state.Output])).toEqual([
      ['one', 'two', 'out'],
      ['two', undefined, 'out'],
    ]);
    expect(await index.toolCalls('abc-1')).toEqual([{ step: 'two', seq: 1, events: [event] }]);
  });

  it('records a step again (a resumed run) in place of the first record', async () => {
    await begin('abc-2');
    await index.stepFinished('abc-2', { ...step(0, 'ask'), type: 'agent', status: 'failure' }, '/events.jsonl');
    await begin('abc-2');
    await index.stepFinished('abc-2', { ...step(0, 'ask'), type: 'agent' }, '/events.jsonl');
    const run = await index.get('abc-2');
    expect(run.step_records.map((s) => s.status)).toEqual(['success']);
    expect((await index.toolCalls('abc-2'))[0].events).toHaveLength(1);
  });

  it('resolves a unique prefix, and refuses an ambiguous or unknown one with its code', async () => {
    await begin('abc-1');
    await begin('abd-2');
    expect(await index.resolve('abc')).toBe('abc-1');
    await expect(index.resolve('ab')).rejects.toMatchObject({ code: 'USER.RUN.AMBIGUOUS_ID' });
    await expect(index.resolve('zz')).rejects.toMatchObject({ code: 'USER.RUN.NOT_FOUND' });
    await expect(index.resolve('a%')).rejects.toMatchObject({ code: 'USER.RUN.NOT_FOUND' });
    await expect(index.resolve('ab_')).rejects.toMatchObject({ code: 'USER.RUN.NOT_FOUND' });
  });

  it('lists with filters, prunes finished runs only, and deletes their steps with them', async () => {
    await begin('old-1', '2020-01-01T00:00:00.000Z');
    await index.stepFinished('old-1', step(0, 'one'));
    await index.finish('old-1', { status: 'failure', finished_at: '2020-01-01T00:00:01.000Z', duration_ms: 1000 });
    await begin('live-1');
    expect((await index.list({})).map((r) => [r.run_id, r.status])).toEqual([
      ['live-1', 'running'],
      ['old-1', 'failure'],
    ]);
    expect((await index.list({ status: 'failure' })).map((r) => r.run_id)).toEqual(['old-1']);
    expect((await index.list({ since: '2021-01-01T00:00:00.000Z' })).map((r) => r.run_id)).toEqual(['live-1']);
    expect(await index.prune('2021-01-01T00:00:00.000Z')).toEqual(['old-1']);
    expect((await index.list({})).map((r) => r.run_id)).toEqual(['live-1']);
    expect(await raw((db) => db.selectFrom('steps').selectAll().execute())).toEqual([]);
  });

  it('pages newest first with `after`, filters by `until`, counts finished runs, and tells killed ones', async () => {
    const at = (s: number) => `2024-01-01T00:00:0${s}.000Z`;
    for (const id of ['b', 'a', 'c']) await begin(id, at(1));
    await begin('d', at(2));
    await index.finish('d', { status: 'success', finished_at: at(3), duration_ms: 100 });
    await index.finish('a', { status: 'cancelled', finished_at: at(3), duration_ms: 300 });
    await index.finish('b', { status: 'failure', finished_at: at(3), duration_ms: 200 });
    const first = await index.list({ limit: 2 });
    expect(first.map((r) => r.run_id)).toEqual(['d', 'c']);
    const last = first.at(-1)!;
    const rest = await index.list({ limit: 5, after: { started_at: last.started_at, run_id: last.run_id } });
    expect(rest.map((r) => r.run_id)).toEqual(['b', 'a']);
    expect((await index.list({ until: at(2) })).map((r) => r.run_id)).toEqual(['c', 'b', 'a']);
    // `c` is still running: left out until its process is gone, then it counts as a failure.
    expect(await index.stats({})).toEqual({ total: 3, success: 1, failure: 1, cancelled: 1, avg_duration_ms: 200 });
    await raw((db) =>
      db
        .updateTable('runs')
        .set({ pid: 2 ** 22 + 7 })
        .where('run_id', '=', 'c')
        .execute(),
    );
    expect(await index.stats({})).toMatchObject({ total: 4, failure: 2 });
    expect((await index.get('c')).status).toBe('interrupted');
    // On another machine's history row, a pid says nothing here: the run stays running.
    await raw((db) => db.updateTable('runs').set({ host: 'elsewhere' }).where('run_id', '=', 'c').execute());
    expect((await index.get('c')).status).toBe('running');
    expect((await index.stats({ workflow: 'other' })).total).toBe(0);
    expect(await index.stats({ status: 'success' })).toMatchObject({ total: 1, success: 1, failure: 0 });
  });

  it('says what migrating did: everything on a new history, nothing the second time', async () => {
    const first = await index.migrate();
    expect(first).toMatchObject({
      applied: ['0001_runs', '0002_tool_call_event', '0003_run_host'],
      version: '0003_run_host',
    });
    expect(first.backup).toBeUndefined();
    await index.close();
    expect(await index.migrate()).toMatchObject({ applied: [], version: '0003_run_host' });
  });

  it('refuses a history that a newer awf migrated, saying to upgrade', async () => {
    await index.migrate();
    await raw((db) =>
      db
        .insertInto('awf_migration' as never)
        .values({ name: '9999_future', timestamp: new Date().toISOString() } as never)
        .execute(),
    );
    await index.close();
    await expect(index.list({})).rejects.toMatchObject({
      code: 'SYSTEM.HISTORY.TOO_NEW',
      message: expect.stringContaining('9999_future'),
      hint: expect.stringContaining('Upgrade awf'),
    });
  });
}

describe('the run history in SQLite', () => {
  let dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  contract(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'awf-sqlite-'));
    dirs = [...dirs, dir];
    return historyLocation(undefined, { AWF_STORAGE: dir });
  });
});

describeUnless(NO_POSTGRES, 'the run history in PostgreSQL', () => {
  let server: PostgresServer;
  let n = 0;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });
  contract(async () => historyLocation(server.createDatabase(`t${++n}`)));
});
