import type { RunJob } from '../../domain/ports/run-queue.port';
import { openJob, signJob } from './job-signature';

const SECRET = 'test-secret-0123456789';
const job: RunJob = {
  run_id: 'r1',
  workflow: 'w',
  entry: 'wf.yaml',
  files: [{ path: 'wf.yaml', sha256: 'x', text: 'name: w' }],
  inputs: {},
  enqueued_at: '2026-01-01T00:00:00Z',
};

describe('job signatures (HMAC-SHA256 with AWF_QUEUE_SECRET)', () => {
  it('opens a job it signed', () => {
    expect(openJob(signJob(job, SECRET), SECRET, 'r1')).toEqual(job);
  });

  it.each([
    ['unsigned', { payload: JSON.stringify(job) }],
    ['changed', { ...signJob(job, SECRET), payload: JSON.stringify({ ...job, inputs: { x: '1' } }) }],
    ['signed with another secret', signJob(job, 'another-secret-0123456789')],
    ['not hex', { ...signJob(job, SECRET), sig: 'zz' }],
  ])('refuses a job that is %s', (_what, data) => {
    expect(() => openJob(data, SECRET, 'r1')).toThrow(
      expect.objectContaining({ code: 'EXECUTION.QUEUE.BAD_SIGNATURE' }),
    );
  });

  it('refuses a signed job replayed under another run id', () => {
    expect(() => openJob(signJob(job, SECRET), SECRET, 'r2')).toThrow(/signed for run r1/);
  });
});
