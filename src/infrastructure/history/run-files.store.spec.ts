import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ValueSecretMasker } from '../../application/secret-masker.service';
import { RunFilesStore, runsRoot } from './run-files.store';

describe('RunFilesStore', () => {
  let root: string;
  let runs: RunFilesStore;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'awf-runs-'));
    runs = new RunFilesStore(root);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('follows AWF_STORAGE, then XDG_DATA_HOME, then ~/.local/share', () => {
    expect(runsRoot({ AWF_STORAGE: '/store', XDG_DATA_HOME: '/data' })).toBe('/store/runs');
    expect(runsRoot({ XDG_DATA_HOME: '/data' })).toBe('/data/awf/runs');
    expect(runsRoot({ HOME: '/home/u' })).toMatch(/\/\.local\/share\/awf\/runs$/);
  });

  it('allocates a private directory per run and a file per step', () => {
    const dir = runs.allocate('r-1');
    expect(dir).toBe(join(root, 'r-1'));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(runs.eventsPath('r-1', 'build docs')).toBe(join(root, 'r-1', 'build_docs.events.jsonl'));
  });

  it('masks secret values in the run record it writes', () => {
    const masker = new ValueSecretMasker({});
    masker.add('tk-9c8b7a6f');
    const masked = new RunFilesStore(root, masker);
    masked.saveMeta({ run_id: 'r-m', workflow: 'demo', error: 'push refused for tk-9c8b7a6f' });
    expect(readFileSync(join(root, 'r-m', 'run.json'), 'utf8')).toContain('push refused for ***');
  });

  it('reads events, skipping a torn last line, and a missing file as no events', () => {
    const path = runs.eventsPath(runs.allocate('r-2') && 'r-2', 'a');
    writeFileSync(
      path,
      `${JSON.stringify({ tool: 'Read', source: 'builtin', start: 't', duration_ms: 1, status: 'ok', args_shape: {} })}\n{"tool":"Wri`,
    );
    expect(runs.readEvents(path)).toHaveLength(1);
    expect(runs.readEvents(join(root, 'nope.jsonl'))).toEqual([]);
  });

  it('loads a run with its meta and steps ordered by their first call', () => {
    runs.saveMeta({ run_id: 'r-3', workflow: 'demo', status: 'success' });
    const event = (step: string, start: string, tool: string, duration_ms: number, status: 'ok' | 'error' = 'ok') =>
      JSON.stringify({ run_id: 'r-3', step, tool, source: 'builtin', start, duration_ms, status, args_shape: {} });
    writeFileSync(
      runs.eventsPath('r-3', 'second'),
      `${event('second', '2026-11-30T05:00:02.000Z', 'Bash', 80, 'error')}\n`,
    );
    writeFileSync(
      runs.eventsPath('r-3', 'first'),
      `${event('first', '2026-11-30T05:00:01.000Z', 'Read', 2)}\n${event('first', '2026-11-30T05:00:01.500Z', 'Grep', 9)}\n`,
    );
    const record = runs.load('r-3');
    expect(record.meta).toMatchObject({ run_id: 'r-3', workflow: 'demo', status: 'success' });
    expect(record.steps.map((s) => [s.step, s.summary])).toEqual([
      ['first', { calls: 2, errors: 0, slowest: { tool: 'Grep', duration_ms: 9 } }],
      ['second', { calls: 1, errors: 1, slowest: { tool: 'Bash', duration_ms: 80 } }],
    ]);
    expect(JSON.parse(readFileSync(join(root, 'r-3', 'run.json'), 'utf8')).workflow).toBe('demo');
  });

  it('refuses unknown ids and ids that would leave the runs directory', () => {
    expect(() => runs.load('missing')).toThrow(expect.objectContaining({ code: 'USER.RUN.NOT_FOUND' }));
    expect(() => runs.load('../../etc')).toThrow(expect.objectContaining({ code: 'USER.RUN.NOT_FOUND' }));
  });
});
