import type { RetryConfig } from '../../../domain/workflow/workflow.model';
import { delayFor } from './command-step.executor';

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
