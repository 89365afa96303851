import type { RetryConfig } from '../../../domain/workflow/workflow.model';
import { delayFor, missingCommand } from './command-step.executor';

const retry = (r: Partial<RetryConfig>): RetryConfig => ({
  maxAttempts: 5,
  initialDelayMs: 100,
  backoff: 'constant',
  multiplier: 2,
  jitter: 0,
  retryableExitCodes: [],
  ...r,
});

describe('retry delays', () => {
  it('follows constant, linear and exponential backoff, capped by max_delay', () => {
    expect([1, 2, 3].map((a) => delayFor(retry({}), a))).toEqual([100, 100, 100]);
    expect([1, 2, 3].map((a) => delayFor(retry({ backoff: 'linear' }), a))).toEqual([100, 200, 300]);
    expect([1, 2, 3, 4].map((a) => delayFor(retry({ backoff: 'exponential', maxDelayMs: 500 }), a))).toEqual([
      100, 200, 400, 500,
    ]);
  });

  it('spreads by jitter within ±jitter of the delay', () => {
    expect(delayFor(retry({ jitter: 0.5 }), 1, () => 0)).toBe(50);
    expect(delayFor(retry({ jitter: 0.5 }), 1, () => 1)).toBe(150);
  });
});

describe('the command a shell could not find (exit 127)', () => {
  it('is read from bash, dash and zsh, whichever $SHELL runs the step', () => {
    expect(missingCommand('bash: line 1: mytool: command not found\n')).toBe('mytool');
    expect(missingCommand('/bin/sh: 1: mytool: not found\n')).toBe('mytool');
    expect(missingCommand('zsh:1: command not found: mytool\n')).toBe('mytool');
    expect(missingCommand('something else went wrong\n')).toBeUndefined();
  });
});
