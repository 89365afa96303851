import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NewTranscriptEvent } from '../../domain/model/transcript-event';
import { TranscriptFilesStore } from './transcript-files.store';

const event = (type: NewTranscriptEvent['type'], path = ''): NewTranscriptEvent => ({
  run_id: 'r-1',
  type,
  path,
  iteration: 0,
  timestamp: '2026-01-01T00:00:00.000Z',
  payload: null,
});

describe('TranscriptFilesStore', () => {
  let root: string;
  let dir: string;
  let store: TranscriptFilesStore;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'awf-transcripts-'));
    dir = join(root, 'transcripts');
    store = new TranscriptFilesStore(dir);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('writes one JSON line per event, numbered from 1, in a private file and directory', () => {
    const sink = store.open('r-1');
    sink.append(event('run.started'));
    sink.append(event('step.started', 'build'));
    sink.close();
    const lines = readFileSync(join(dir, 'r-1.jsonl'), 'utf8').trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { seq: 1, ...event('run.started') },
      { seq: 2, ...event('step.started', 'build') },
    ]);
    expect(statSync(join(dir, 'r-1.jsonl')).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('goes on numbering where the file stopped (a resumed run), past a torn last line', () => {
    const first = store.open('r-1');
    first.append(event('run.started'));
    first.append(event('run.completed'));
    first.close();
    appendFileSync(join(dir, 'r-1.jsonl'), '{"seq":3,"ty');
    const second = store.open('r-1');
    second.append(event('run.started'));
    second.close();
    expect(store.read('r-1').map((e) => [e.seq, e.type])).toEqual([
      [1, 'run.started'],
      [2, 'run.completed'],
      [3, 'run.started'],
    ]);
  });

  it('appends the same lines to a mirror file; one that cannot be opened is a warning, not a failure', () => {
    const mirror = join(root, 'mirror.jsonl');
    writeFileSync(mirror, 'kept\n');
    const sink = store.open('r-1', { mirror });
    sink.append(event('run.started'));
    sink.close();
    expect(readFileSync(mirror, 'utf8')).toBe(`kept\n${readFileSync(join(dir, 'r-1.jsonl'), 'utf8')}`);
    expect(statSync(mirror).mode & 0o777).toBe(0o600);

    const warnings: string[] = [];
    const broken = store.open('r-2', {
      mirror: join(root, 'no', 'such', 'dir', 'm.jsonl'),
      warn: (w) => warnings.push(w),
    });
    broken.append(event('run.started'));
    broken.close();
    expect(warnings).toEqual([expect.stringContaining('--debug-transcript-mirror')]);
    expect(store.read('r-2')).toHaveLength(1);
  });

  it('finds a transcript by its id or a unique prefix; refuses an unknown, ambiguous or unsafe one', () => {
    for (const id of ['abc-1', 'abc-2', 'abd-3']) store.open(id).close();
    expect(store.resolve('abd')).toBe('abd-3');
    expect(store.resolve('abc-1')).toBe('abc-1');
    expect(() => store.resolve('abc')).toThrow(expect.objectContaining({ code: 'USER.RUN.AMBIGUOUS_ID' }));
    expect(() => store.resolve('zzz')).toThrow(expect.objectContaining({ code: 'USER.RUN.NOT_FOUND' }));
    expect(() => store.resolve('../etc')).toThrow(expect.objectContaining({ code: 'USER.RUN.NOT_FOUND' }));
    expect(() => new TranscriptFilesStore(join(root, 'none')).resolve('abc')).toThrow(
      expect.objectContaining({ code: 'USER.RUN.NOT_FOUND' }),
    );
  });

  it("removes a transcript with its called workflows' runs, and a missing one quietly", () => {
    const parent = store.open('gone');
    parent.append({ ...event('step.call_workflow.started', 'call'), child_run_id: 'gone-child' });
    parent.close();
    const child = store.open('gone-child');
    child.append({ ...event('step.call_workflow.started', 'deeper'), child_run_id: 'gone-grandchild' });
    child.close();
    store.open('gone-grandchild').close();
    store.open('kept').close();
    store.remove('gone');
    store.remove('never');
    for (const id of ['gone', 'gone-child', 'gone-grandchild'])
      expect(() => store.resolve(id)).toThrow(expect.objectContaining({ code: 'USER.RUN.NOT_FOUND' }));
    expect(store.resolve('kept')).toBe('kept');
  });
});
