import { isAwfError } from '../../../domain/errors/awf-error';
import { parseMockFlags } from './mock-states';

describe('parseMockFlags (-m)', () => {
  it('builds successful states from states.<step>.<Field>=value, split on the first =, trimmed', () => {
    expect(parseMockFlags(['states.fetch.Output= a=b ', 'states.fetch.ExitCode=3', 'states.x.Stderr=e'])).toEqual({
      fetch: { Output: 'a=b', Stderr: '', ExitCode: 3, Status: 'success' },
      x: { Output: '', Stderr: 'e', ExitCode: 0, Status: 'success' },
    });
  });

  it.each(['fetch.Output=x', 'states.fetch.Nope=x', 'states.fetch.ExitCode=two', 'no-equals'])(
    'refuses %p with a usage error',
    (flag) => {
      try {
        parseMockFlags([flag]);
        throw new Error('accepted');
      } catch (err) {
        expect(isAwfError(err) && err.code).toBe('USER.CLI.INVALID_ARGS');
      }
    },
  );
});
