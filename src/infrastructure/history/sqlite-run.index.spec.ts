import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StepRecord } from '../../domain/ports/run-index.port';
import { HISTORY_SCHEMA } from './history.schema';
import { SqliteRunIndex } from './sqlite-run.index';
import { openDatabase } from './sqlite.loader';

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

describe('SqliteRunIndex (a real SQLite file)', () => {
  let dir: string;
  let index: SqliteRunIndex;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'awf-history-'));
    index = new SqliteRunIndex(
      () => join(dir, 'history.db'),
      () => [
        {
          tool: 'Read',
          source: 'builtin',
          start: '2026-01-01T00:00:00Z',
          duration_ms: 1,
          status: 'ok',
          args_shape: {},
        },
      ],
      (id) => join(dir, 'runs', id),
    );
  });
  afterEach(() => {
    index.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const begin = (id: string, started = new Date().toISOString()) =>
    index.begin({ run_id: id, workflow: 'wf', file: '/w.yaml', cwd: dir, inputs: { a: '1' }, started_at: started });

  it('keeps the steps of a run and ingests the audit events of agent steps with them', () => {
    begin('abc-1');
    index.stepFinished('abc-1', step(0, 'one', 'two'));
    index.stepFinished('abc-1', { ...step(1, 'two'), type: 'agent' }, '/events.jsonl');
    index.finish('abc-1', {
      status: 'success',
      finished_at: new Date().toISOString(),
      duration_ms: 12,
      terminal: 'done',
    });
    const run = index.get('abc-1');
    expect(run).toMatchObject({
      status: 'success',
      steps: 2,
      terminal: 'done',
      inputs: { a: '1' },
      current_step: 'two',
    });
    expect(run.step_records.map((s) => [s.name, s.next])).toEqual([
      ['one', 'two'],
      ['two', undefined],
    ]);
    const db = openDatabase(join(dir, 'history.db'));
    expect(db.prepare('SELECT run_id, step_seq, tool FROM tool_calls').all()).toEqual([
      { run_id: 'abc-1', step_seq: 1, tool: 'Read' },
    ]);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it("gives a run's tool calls step by step, each with its whole audit event (schema version 2)", () => {
    begin('abc-2');
    index.stepFinished('abc-2', { ...step(0, 'ask'), type: 'agent' }, '/events.jsonl');
    expect(index.toolCalls('abc-2')).toEqual([
      {
        step: 'ask',
        seq: 0,
        events: [
          {
            tool: 'Read',
            source: 'builtin',
            start: '2026-01-01T00:00:00Z',
            duration_ms: 1,
            status: 'ok',
            args_shape: {},
          },
        ],
      },
    ]);
    const db = openDatabase(join(dir, 'history.db'));
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    db.close();
  });

  it('brings a version 1 file up to version 2; its old rows show what their columns hold', () => {
    const file = join(dir, 'history.db');
    const v1 = openDatabase(file);
    v1.exec(HISTORY_SCHEMA);
    v1.prepare(
      `INSERT INTO runs (run_id, workflow, inputs, status, started_at) VALUES ('old-1', 'wf', '{}', 'success', '2026-01-01')`,
    ).run();
    v1.prepare(
      `INSERT INTO steps (run_id, seq, name, type, status, started_at, duration_ms, exit_code, tool_calls, state)
      VALUES ('old-1', 0, 'ask', 'agent', 'success', '2026-01-01', 1, 0, 1, '{}')`,
    ).run();
    v1.prepare(
      `INSERT INTO tool_calls (run_id, step_seq, seq, tool, source, status, start, duration_ms, error)
      VALUES ('old-1', 0, 0, 'Bash', 'builtin', 'error', '2026-01-01T00:00:00Z', 3, 'boom')`,
    ).run();
    expect(v1.pragma('user_version', { simple: true })).toBe(1);
    v1.close();
    expect(index.toolCalls('old-1')[0].events).toEqual([
      {
        tool: 'Bash',
        source: 'builtin',
        start: '2026-01-01T00:00:00Z',
        duration_ms: 3,
        status: 'error',
        error: 'boom',
        args_shape: {},
      },
    ]);
    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    db.close();
  });

  it('resolves a unique prefix, and refuses an ambiguous or unknown one with its code', () => {
    begin('abc-1');
    begin('abd-2');
    expect(index.resolve('abc')).toBe('abc-1');
    expect(() => index.resolve('ab')).toThrow(expect.objectContaining({ code: 'USER.RUN.AMBIGUOUS_ID' }));
    expect(() => index.resolve('zz')).toThrow(expect.objectContaining({ code: 'USER.RUN.NOT_FOUND' }));
    expect(() => index.resolve('a%')).toThrow(expect.objectContaining({ code: 'USER.RUN.NOT_FOUND' }));
  });

  it('reads a run whose process is gone as interrupted, and lists with filters', () => {
    begin('old-1', '2020-01-01T00:00:00.000Z');
    index.finish('old-1', { status: 'failure', finished_at: '2020-01-01T00:00:01.000Z', duration_ms: 1000 });
    begin('live-1');
    expect(index.list({}).map((r) => [r.run_id, r.status])).toEqual([
      ['live-1', 'running'],
      ['old-1', 'failure'],
    ]);
    expect(index.list({ status: 'failure' }).map((r) => r.run_id)).toEqual(['old-1']);
    expect(index.list({ since: '2021-01-01T00:00:00.000Z' }).map((r) => r.run_id)).toEqual(['live-1']);
    expect(index.prune('2021-01-01T00:00:00.000Z')).toEqual(['old-1']);
    expect(index.list({}).map((r) => r.run_id)).toEqual(['live-1']);
  });

  it('pages through runs newest first with `after`, filters by `until`, and counts finished runs', () => {
    const at = (s: number) => `2024-01-01T00:00:0${s}.000Z`;
    ['b', 'a', 'c'].forEach((id) => begin(id, at(1)));
    begin('d', at(2));
    index.finish('d', { status: 'success', finished_at: at(3), duration_ms: 100 });
    index.finish('a', { status: 'cancelled', finished_at: at(3), duration_ms: 300 });
    index.finish('b', { status: 'failure', finished_at: at(3), duration_ms: 200 });
    const first = index.list({ limit: 2 });
    expect(first.map((r) => r.run_id)).toEqual(['d', 'c']);
    const last = first.at(-1)!;
    const rest = index.list({ limit: 5, after: { started_at: last.started_at, run_id: last.run_id } });
    expect(rest.map((r) => r.run_id)).toEqual(['b', 'a']);
    expect(index.list({ until: at(2) }).map((r) => r.run_id)).toEqual(['c', 'b', 'a']);
    // `c` is still running: left out until its process is gone, then it counts as a failure.
    expect(index.stats({})).toEqual({ total: 3, success: 1, failure: 1, cancelled: 1, avg_duration_ms: 200 });
    const db = openDatabase(join(dir, 'history.db'));
    db.prepare('UPDATE runs SET pid = ? WHERE run_id = ?').run(2 ** 22 + 7, 'c');
    db.close();
    expect(index.stats({})).toMatchObject({ total: 4, failure: 2 });
    expect(index.stats({ workflow: 'other' }).total).toBe(0);
    expect(index.stats({ status: 'success' })).toMatchObject({ total: 1, success: 1, failure: 0 });
  });

  it('turns a missing native build into SYSTEM.HISTORY.UNAVAILABLE', () => {
    expect(() =>
      openDatabase(join(dir, 'x.db'), () => {
        throw new Error('Could not locate the bindings file. Tried: build/better_sqlite3.node');
      }),
    ).toThrow(expect.objectContaining({ code: 'SYSTEM.HISTORY.UNAVAILABLE' }));
  });
});
