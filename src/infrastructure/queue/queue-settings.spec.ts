import { maskUrl } from '../core/masked-url';
import { queueSettings } from './queue-settings';

describe('queue settings', () => {
  const secret = { AWF_QUEUE_SECRET: 'a-long-enough-secret' };

  it('masks the password of a queue URL wherever it is shown', () => {
    expect(maskUrl('redis://user:hunter2@10.0.0.5:6379/2')).toBe('redis://user:***@10.0.0.5:6379/2');
    expect(maskUrl('redis://:hunter2@host:6379')).toBe('redis://:***@host:6379');
    expect(maskUrl('redis://host:6379')).toBe('redis://host:6379');
    expect(maskUrl('not a url hunter2')).toBe('<invalid URL>');
  });

  it('gives the password to the caller (for the masker) and never in the label', () => {
    const s = queueSettings('redis://u:p%40ss@h:1', secret);
    expect(s).toMatchObject({ label: 'redis://u:***@h:1', password: 'p@ss', secret: secret.AWF_QUEUE_SECRET });
  });

  it('takes redis:// and rediss:// for Redis, postgres:// and postgresql:// for the PostgreSQL backend', () => {
    expect(queueSettings('rediss://h:1', secret).kind).toBe('redis');
    expect(queueSettings('postgresql://h/db', secret).kind).toBe('postgres');
    const pg = queueSettings('postgres://awf:s3cret@db:5432/awf', secret);
    expect(pg).toMatchObject({ kind: 'postgres', label: 'postgres://awf:***@db:5432/awf', password: 's3cret' });
  });

  it('refuses a URL that is not redis:// or postgres:// with a USER code, naming it masked', () => {
    expect(() => queueSettings('http://u:pw@h', secret)).toThrow(
      expect.objectContaining({ code: 'USER.QUEUE.INVALID_URL', message: expect.stringContaining('http://u:***@h') }),
    );
  });

  it('needs AWF_QUEUE_SECRET, at least 16 characters', () => {
    expect(() => queueSettings('redis://h:1', {})).toThrow(expect.objectContaining({ code: 'USER.QUEUE.NO_SECRET' }));
    expect(() => queueSettings('redis://h:1', { AWF_QUEUE_SECRET: 'short' })).toThrow(
      expect.objectContaining({ code: 'USER.QUEUE.NO_SECRET', message: expect.stringContaining('shorter') }),
    );
  });
});
