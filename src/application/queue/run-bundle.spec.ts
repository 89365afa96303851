import type { RunJob } from '../../domain/ports/run-queue.port';
import { sha256, verifyBundle } from './run-bundle';

const file = (path: string, text = 'x') => ({ path, text, sha256: sha256(text) });
const job = (files: RunJob['files'], entry = 'wf.yaml'): RunJob => ({
  run_id: 'r',
  workflow: 'w',
  entry,
  files,
  inputs: {},
  enqueued_at: '',
});

describe("a worker's check of a job's files", () => {
  it('accepts files that match their digests, in the run directory', () => {
    expect(() => verifyBundle(job([file('wf.yaml'), file('scripts/b.sh')]))).not.toThrow();
  });

  it.each([
    ['a changed file', job([{ ...file('wf.yaml'), text: 'y' }])],
    ['a path out of the run directory', job([file('wf.yaml'), file('../../.bashrc')])],
    ['an absolute path', job([file('wf.yaml'), file('/etc/cron.d/x')])],
    ['a path that is not normal', job([file('wf.yaml'), file('a/../../x')])],
    ['an entry that is not among the files', job([file('other.yaml')])],
  ])('refuses %s with EXECUTION.QUEUE.BAD_DIGEST', (_what, bad) => {
    expect(() => verifyBundle(bad)).toThrow(expect.objectContaining({ code: 'EXECUTION.QUEUE.BAD_DIGEST' }));
  });
});
